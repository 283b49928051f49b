import Crypto
import Ephemeral
import Foundation
import HoldfastAdmin
import HoldfastProtocol
import JOSE

/// The operation signing policies (docs/server-api.md "SCA wallet (back end)"): one list, replaced whole by the back end, read by the
/// devices to know what to sign and by `SCAProofService` to check what was signed.
struct SCAPolicyService: Sendable {
    static let maximumPolicies = 500
    static let maximumFields = 100

    let store: SCARulesStore

    init(store: SCARulesStore) {
        self.store = store
    }

    func policies() async throws -> [SCAPolicy] {
        try await store.policies() ?? []
    }

    func replace(_ policies: [SCAPolicy], now: Date) async throws -> [SCAPolicy] {
        var errors: [ProblemDetails.FieldError] = []
        if policies.count > Self.maximumPolicies {
            errors.append(.init(field: "", code: ProblemDetails.FieldError.tooLong, detail: "at most \(Self.maximumPolicies) policies"))
        }
        var seen = Set<String>()
        for (index, policy) in policies.enumerated() {
            if !["GET", "POST", "PUT", "PATCH", "DELETE"].contains(policy.method) {
                errors.append(.init(field: "[\(index)].method", code: ProblemDetails.FieldError.invalidValue, detail: "GET, POST, PUT, PATCH or DELETE"))
            }
            if !policy.pathTemplate.hasPrefix("/") || policy.pathTemplate.contains("?") || policy.pathTemplate.utf8.count > 1_024 {
                errors.append(.init(field: "[\(index)].pathTemplate", code: ProblemDetails.FieldError.invalidValue,
                                    detail: "a path starting with /, without a query, {name} for a variable segment"))
            }
            if case .fields(let names) = policy.signedFields, names.count > Self.maximumFields || names.contains(where: \.isEmpty) {
                errors.append(.init(field: "[\(index)].signedFields", code: ProblemDetails.FieldError.invalidValue,
                                    detail: "\"all\" or at most \(Self.maximumFields) non-empty field names"))
            }
            if !seen.insert("\(policy.method.uppercased()) \(policy.pathTemplate)").inserted {
                errors.append(.init(field: "[\(index)]", code: ProblemDetails.FieldError.conflicting, detail: "a second policy for the same method and path"))
            }
        }
        guard errors.isEmpty else { throw ProblemError.validation(errors) }
        try await store.replacePolicies(policies, at: now)
        return policies
    }
}

/// `POST /v1/sca/proofs/verify` (docs/server-api.md "SCA wallet (back end)"): what the bank's back end asks of a proof it received with a
/// request. Checked in this order, the first failure answered with its code: the proof's form (compact JWS, ES256,
/// `typ` `sca-proof+jwt`, `kid` = `walletId`, exactly the documented members); the wallet (exists, activated, not
/// locked, not deleted); the signature with the wallet's key for the proof's `pattern` (the wallet key for `none`,
/// the enrolled PIN key for `pin`, the biometry key for `biometry`: docs/DESIGN.md "The SCA wallet's PIN"); the
/// wallet's device against the eligibility rules now (`DEVICE_NOT_ELIGIBLE`, `APP_SUNSET`); the policy covering the
/// request; the signed `method` against the request's; the signed `{url, body}` against the one the policy makes of
/// the request (`CanonicalJSON`); the pattern; `iat` within `maximumAge` (and not ahead by more than `skew`); then,
/// atomically on every node, that `jti` was never accepted before (the ephemeral store's replay part) and that `iat`
/// is not before the store's epoch (docs/operations.md "A store that lost its memory"); and last the proof counter, which must be
/// above the last accepted one — a repeated or lower counter is a clone's, and locks the wallet (`FRAUD_SUSPICION`).
struct SCAProofService: Sendable {
    static let maximumAge: TimeInterval = 300
    static let skew: TimeInterval = 60
    static let maximumProofLength = 64 * 1024

    let wallets: SCAWalletStore
    let policies: SCAPolicyService
    let eligibility: SCAEligibilityService
    let replay: any EphemeralStore

    func verify(_ request: SCAProofVerifyRequest, now: Date) async throws -> SCAProofVerification {
        func invalid(_ code: SCAProofFailureCode, _ reason: String, wallet: String? = nil) -> SCAProofVerification {
            SCAProofVerification(valid: false, walletId: wallet, code: code, reason: reason)
        }
        guard request.proof.utf8.count <= Self.maximumProofLength, let jws = try? JWS(compactSerialization: request.proof) else {
            return invalid(SCAProofFailureCode.malformed, "not a compact JWS")
        }
        guard jws.algorithm == .es256, jws.header.typ == SCAProofClaims.type, let kid = jws.header.kid else {
            return invalid(SCAProofFailureCode.malformed, "the header is not alg ES256, typ \(SCAProofClaims.type) with a kid")
        }
        guard let object = (try? JSONValue(json: jws.payload))?.objectValue, let claims = SCAProofClaims(members: object),
              claims.walletId == kid else {
            return invalid(SCAProofFailureCode.malformed, "the payload is not exactly {method, url, body, message, pattern, signatureInputData, walletId, iat, jti} of wallet \(kid.prefix(64))")
        }
        guard let wallet = try await wallets.credential(walletId: kid) else {
            return invalid(SCAProofFailureCode.walletNotFound, "no wallet \(kid.prefix(64))")
        }
        switch wallet.state.known {
        case .deleted?: return invalid(SCAProofFailureCode.walletDeleted, "the wallet is deleted", wallet: kid)
        case .locked?: return invalid(SCAProofFailureCode.walletLocked, "the wallet is locked", wallet: kid)
        case .pending?: return invalid(SCAProofFailureCode.walletNotActive, "the wallet was never activated", wallet: kid)
        case .active?, nil: break
        }
        let signingKey = switch claims.pattern {
        case .none: wallet.publicKey
        case .pin: wallet.pinKey
        case .biometry: wallet.biometryKey
        }
        guard let encoded = signingKey, let key = try? InstancePublicKey(encoded: encoded),
              (try? jws.verify(with: .p256(key.key), allowedAlgorithms: [.es256])) != nil else {
            return invalid(SCAProofFailureCode.signatureInvalid,
                           "the signature does not verify with the wallet's \(claims.pattern == .none ? "" : "\(claims.pattern.rawValue) ")key", wallet: kid)
        }
        if let refusal = try await ineligibility(of: wallet, now: now) {
            return invalid(refusal.code, refusal.reason, wallet: kid)
        }
        guard let url = URL(string: request.url),
              let policy = SCAPolicy.matching(try await policies.policies(), method: request.method, url: url) else {
            return invalid(SCAProofFailureCode.policyNotFound, "no signing policy covers \(request.method.prefix(16)) \(request.url.prefix(200))", wallet: kid)
        }
        let expected: SCAPayload
        do {
            expected = try SCAPayload(method: request.method, url: request.url, body: request.body, policy: policy)
        } catch {
            return invalid(SCAProofFailureCode.payloadMismatch, "the request cannot be signed: \(error)", wallet: kid)
        }
        guard expected.isSigned(byMethod: claims.method) else {
            return invalid(SCAProofFailureCode.methodMismatch,
                           "the proof signs method \(claims.method.prefix(16)), the request is \(expected.method.prefix(16))", wallet: kid)
        }
        guard expected.isSigned(by: claims.url, body: claims.body) else {
            return invalid(SCAProofFailureCode.payloadMismatch, "the signed url and body are not the request's under its policy", wallet: kid)
        }
        guard policy.accepts(claims.pattern) else {
            return invalid(SCAProofFailureCode.patternInsufficient,
                           "pattern \(claims.pattern.rawValue); the policy asks for \(policy.requiredPatterns.map(\.rawValue).joined(separator: " or "))", wallet: kid)
        }
        let issuedAt = TimeInterval(claims.iat)
        let current = now.timeIntervalSince1970
        guard issuedAt >= current - Self.maximumAge, issuedAt <= current + Self.skew else {
            return invalid(SCAProofFailureCode.expired, "iat is more than \(Int(Self.maximumAge)) s old or ahead of the tenant's clock", wallet: kid)
        }
        guard !claims.jti.isEmpty, claims.jti.utf8.count <= 256 else {
            return invalid(SCAProofFailureCode.replayed, "this proof was accepted before", wallet: kid)
        }
        switch try await replay.spend("holdfast:sca:jti:\(kid):\(claims.jti)", issuedInSecond: Date(timeIntervalSince1970: issuedAt),
                                      ttl: .seconds(Int64(Self.maximumAge + Self.skew) + 1), now: now) {
        case .spent: break
        case .alreadySpent: return invalid(SCAProofFailureCode.replayed, "this proof was accepted before", wallet: kid)
        case .issuedBeforeEpoch:
            return invalid(SCAProofFailureCode.issuedBeforeStoreReset,
                           "the tenant's ephemeral store lost its memory after this proof was made; sign again", wallet: kid)
        }
        let counter = claims.counter
        // One conditional update in the common case; the wallet's row is read and locked only when it refuses.
        var fresh: Bool? = true
        if try await !wallets.advanceProofCounter(walletId: kid, to: counter) {
            fresh = try await wallets.transaction { transaction -> Bool? in
                guard let current = try await transaction.walletForUpdate(id: kid), current.state == .active else { return nil }
                guard counter > current.proofCounter else {
                    try await transaction.lock(id: kid, reason: .fraudSuspicion)
                    try await transaction.appendEvent(walletId: kid, type: .locked, data: ["reason": .string(SCALockReason.fraudSuspicion.rawValue)],
                                                      now: now)
                    return false
                }
                try await transaction.setProofCounter(id: kid, counter)
                return true
            }
        }
        switch fresh {
        case true?: break
        case false?:
            return invalid(SCAProofFailureCode.fraudSuspicion,
                           "the proof's counter is not above the last accepted one: another copy of the wallet signs; the wallet is locked", wallet: kid)
        case nil:
            return invalid(SCAProofFailureCode.walletLocked, "the wallet was locked meanwhile", wallet: kid)
        }
        return SCAProofVerification(valid: true, walletId: kid, userId: wallet.userId,
                                    pattern: claims.pattern)
    }

    /// The eligibility rules as they stand now, applied to the wallet's device (docs/server-api.md "SCA wallet (back end)"): a
    /// blocked model, or a version unsupported at once, is `DEVICE_NOT_ELIGIBLE`; a version past a rule's sunset date
    /// is `APP_SUNSET`.
    private func ineligibility(of wallet: SCAWalletStore.Credential, now: Date) async throws -> (code: SCAProofFailureCode, reason: String)? {
        let rules = try await eligibility.rules()
        if let model = wallet.deviceModel, rules.blockedDeviceModels.contains(model) {
            return (SCAProofFailureCode.deviceIneligible, "the wallet's device model is blocked")
        }
        guard let rule = rules.unsupportedVersion(applicationId: wallet.applicationId, appVersion: wallet.appVersion, at: now) else { return nil }
        if let sunset = rule.sunsetAt {
            return (SCAProofFailureCode.appVersionSunset, "the wallet's app version is below \(rule.version), unsupported since \(HoldfastJSON.formatDate(sunset))")
        }
        return (SCAProofFailureCode.deviceIneligible, "the wallet's app version is below \(rule.version)")
    }
}
