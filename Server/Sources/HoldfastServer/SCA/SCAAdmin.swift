import Foundation
import HoldfastAdmin
import HoldfastProtocol
import Logging

/// SCA wallets and policies on a database, for `holdfast admin sca` (docs/server-api.md "SCA wallet (back end)"): the same services and
/// validation the API uses.
public struct SCAAdmin: Sendable {
    let wallets: SCAWalletService
    let policies: SCAPolicyService
    let eligibility: SCAEligibilityService

    /// The capability's services as the server builds them (`SCAServices`), on `database`.
    public init(database: HoldfastDatabase, logger: Logger) {
        self.init(services: SCAServices(database: database, logger: logger, random: SystemRandomSource()))
    }

    public init(services: SCAServices) {
        wallets = services.wallets
        policies = services.policies
        eligibility = services.eligibility
    }

    public func eligibilityRules() async throws -> SCAEligibilityRules { try await eligibility.rules() }

    /// Replaces the eligibility rules with the JSON object `document` (activated wallets they affect get events).
    /// Replaces the eligibility rules (the command line reads and checks the JSON first, as the API does).
    public func replaceEligibilityRules(_ rules: SCAEligibilityRules, now: Date) async throws -> SCAEligibilityRules {
        try await eligibility.replace(rules, now: now)
    }

    public func eligibilityDenial(reference: String) async throws -> SCAEligibilityDenial {
        try await eligibility.denial(reference: reference)
    }

    public func create(_ request: SCAWalletCreateRequest, now: Date) async throws -> SCAWalletCreated {
        try await wallets.create(request, now: now)
    }

    public func wallet(id: String) async throws -> SCAWallet { try await wallets.get(id: id) }

    public func wallets(userId: String) async throws -> SCAWalletList { try await wallets.list(userId: userId) }

    public func lock(id: String, reason: SCALockReason, now: Date) async throws -> SCAWallet {
        try await wallets.lock(id: id, reason: reason, now: now)
    }

    public func unlock(id: String, now: Date) async throws -> SCAWallet { try await wallets.unlock(id: id, now: now) }

    public func resetCredentials(id: String, now: Date) async throws -> SCAWallet {
        try await wallets.resetCredentials(id: id, now: now)
    }

    public func delete(id: String, now: Date) async throws { try await wallets.delete(id: id, now: now) }

    /// Replaces the policies (the command line reads and checks the JSON first, as the API does).
    public func replacePolicies(_ list: [SCAPolicy], now: Date) async throws -> [SCAPolicy] {
        try await policies.replace(list, now: now)
    }
}
