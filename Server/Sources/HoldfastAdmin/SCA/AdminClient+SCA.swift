import Foundation
import HoldfastProtocol

/// The SCA wallet's back-end routes (docs/server-api.md "SCA wallet (back end)"; `SCAAdminRoutes`, `SCARoutes`): what a bank's back end
/// calls with an admin key, and proof verification (a key of scope `sca` is enough).
extension AdminClient {
    /// A wallet for a customer; its activation code is shown once.
    public func createSCAWallet(_ request: SCAWalletCreateRequest) async throws -> SCAWalletCreated {
        try await call("POST", SCAAdminRoutes.Template.wallets, body: request, expecting: 201)
    }

    /// The wallets of one user (the bank's own reference).
    public func scaWallets(userId: String) async throws -> SCAWalletList {
        try await call("GET", SCAAdminRoutes.Template.wallets, query: [(SCARoutes.Query.userId, userId)], expecting: 200)
    }

    public func scaWallet(id: String) async throws -> SCAWallet {
        try await call("GET", SCAAdminRoutes.Template.wallet, ["walletId": id], expecting: 200)
    }

    public func lockSCAWallet(id: String, reason: SCALockReason) async throws -> SCAWallet {
        try await call("PUT", SCAAdminRoutes.Template.lock, ["walletId": id], body: SCAWalletLockRequest(reason: reason), expecting: 200)
    }

    public func unlockSCAWallet(id: String) async throws -> SCAWallet {
        try await call("PUT", SCAAdminRoutes.Template.unlock, ["walletId": id], expecting: 200)
    }

    public func resetSCAWalletCredentials(id: String) async throws -> SCAWallet {
        try await call("PUT", SCAAdminRoutes.Template.resetCredentials, ["walletId": id], expecting: 200)
    }

    public func updateSCAWalletSettings(id: String, _ settings: SCAWalletSettings) async throws -> SCAWallet {
        try await call("PUT", SCAAdminRoutes.Template.settings, ["walletId": id], body: settings, expecting: 200)
    }

    /// Tells the device its customer's products changed (an event on its feed).
    public func scaProductsUpdated(walletId: String, _ update: SCAProductsUpdated = SCAProductsUpdated()) async throws -> SCAWallet {
        try await call("POST", SCAAdminRoutes.Template.productsUpdated, ["walletId": walletId], body: update, expecting: 200)
    }

    public func deleteSCAWallet(id: String) async throws {
        try await expectNoContent("DELETE", SCAAdminRoutes.Template.wallet, ["walletId": id])
    }

    /// The operations' signing policies (public; sent with the key anyway).
    public func scaPolicies() async throws -> [SCAPolicy] {
        try await call("GET", SCARoutes.Template.policies, expecting: 200)
    }

    public func replaceSCAPolicies(_ policies: [SCAPolicy]) async throws -> [SCAPolicy] {
        try await call("PUT", SCARoutes.Template.policies, body: policies, expecting: 200)
    }

    /// A proof the bank received with a request, verified.
    public func verifySCAProof(_ request: SCAProofVerifyRequest) async throws -> SCAProofVerification {
        try await call("POST", SCARoutes.Template.verifyProof, body: request, expecting: 200)
    }

    public func scaEligibilityRules() async throws -> SCAEligibilityRules {
        try await call("GET", SCAAdminRoutes.Template.eligibility, expecting: 200)
    }

    public func replaceSCAEligibilityRules(_ rules: SCAEligibilityRules) async throws -> SCAEligibilityRules {
        try await call("PUT", SCAAdminRoutes.Template.eligibility, body: rules, expecting: 200)
    }

    /// The device an eligibility check refused, by the reference the customer quotes.
    public func scaEligibilityDenial(reference: String) async throws -> SCAEligibilityDenial {
        try await call("GET", SCAAdminRoutes.Template.denial, ["reference": reference], expecting: 200)
    }
}
