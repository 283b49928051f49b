import Attestation
import Foundation
import HoldfastAdmin
import HoldfastProtocol
import JOSE
import Logging

/// A device's activation of its wallet (README "SCA wallet"), with the registration core's challenge store and
/// evidence verifier.
struct SCAActivationService: Sendable {
    /// Wrong codes for one activation (its selector) before it refuses every code, the right one too.
    static let maximumFailuresPerActivation: Int64 = 5

    let store: SCAWalletStore
    let applications: HolderApplicationService
    let keys: NewKeyVerification
    let logger: Logger
    /// Wrong codes per hour over all sources: past it, no code is checked until the hour ends, so that guessers
    /// spread over many sources (each within the per-source limit) still get nowhere.
    var maximumFailuresPerHour: Int64 = 1_000

    /// Turns the one-time code into the wallet: the code must be unused and unexpired; the challenge (of the wallet's
    /// holder application) is consumed and the key's evidence verified as at instance registration; then, in one
    /// conditional update, the code is spent and the key stored — of two activations racing with one code, one wins.
    func activate(_ request: SCAActivationRequest, now: Date) async throws -> SCAActivationResponse {
        var errors: [ProblemDetails.FieldError] = []
        if request.activationCode.isEmpty { errors.append(.init(field: "activationCode", code: ProblemDetails.FieldError.required, detail: "must not be empty")) }
        if request.challenge.isEmpty { errors.append(.init(field: "challenge", code: ProblemDetails.FieldError.required, detail: "must not be empty")) }
        var publicKey: InstancePublicKey?
        do { publicKey = try InstancePublicKey(encoded: request.publicKey) } catch {
            errors.append(.init(field: "publicKey", code: ProblemDetails.FieldError.invalidValue, detail: error.description))
        }
        for (field, value) in [("device.model", request.device?.model), ("device.appVersion", request.device?.appVersion)] {
            if let value, value.unicodeScalars.count > SCAWalletService.maximumDetailLength {
                errors.append(.init(field: field, code: ProblemDetails.FieldError.tooLong, detail: "at most \(SCAWalletService.maximumDetailLength) characters"))
            }
        }
        guard errors.isEmpty, let publicKey else { throw ProblemError.validation(errors) }
        let pending = try await matchingActivation(code: request.activationCode, now: now)
        let codeHash = SCAWalletService.hash(request.activationCode)
        let walletId = pending.walletId
        let application = try await applications.get(id: pending.applicationId)
        let verified = try await keys.verify(
            challenge: request.challenge, publicKey: publicKey, attestation: request.attestation, keyId: request.keyId,
            assertion: request.assertion, applicationId: application.id ?? "", application: application, developmentMode: false,
            now: now)
        let (model, version) = (request.device?.model, request.device?.appVersion)
        let activated = try await store.transaction { transaction in
            guard try await transaction.activate(walletId: walletId, codeHash: codeHash, publicKey: publicKey.encoded,
                                                 attestationType: verified.type.rawValue, deviceModel: model, appVersion: version,
                                                 at: Timestamp.milliseconds(now), maximumFailures: Self.maximumFailuresPerActivation)
            else { return false }
            try await transaction.appendEvent(walletId: walletId, type: .loaded, data: [:], now: now)
            return true
        }
        guard activated else { throw SCAError.invalidActivationCode }
        logger.info("sca wallet activated", metadata: ["wallet_id": .string(walletId), "attestation": .string(verified.type.rawValue)])
        return SCAActivationResponse(walletId: walletId, userId: pending.userId, accessProtection: pending.accessProtection,
                                     maxPinAttempts: pending.maxPinAttempts)
    }

    /// The pending, unexpired activation `code` is for — found with reads only, before anything costly (the challenge,
    /// the key's evidence). In order (README "SCA wallet (back end)"):
    /// 1. the tenant-wide budget: when `maximumFailuresPerHour` wrong codes were given this hour, every activation is
    ///    `429 ACTIVATION_ATTEMPTS_EXHAUSTED` until the hour ends;
    /// 2. the code's selector names the activation; one with `maximumFailuresPerActivation` wrong codes is
    ///    `400 ACTIVATION_LOCKED`, whatever the code;
    /// 3. the code's SHA-256, compared in constant time; a wrong, used or expired code is `400 INVALID_ACTIVATION_CODE`,
    ///    counted in the hour's budget and, when its selector names a pending activation, against that activation.
    func matchingActivation(code: String, now: Date) async throws -> SCAWalletStore.PendingActivation {
        let stamp = Timestamp.milliseconds(now)
        let hour = stamp / 3_600_000
        guard try await store.activationFailures(hour: hour) < maximumFailuresPerHour else {
            throw SCAError.activationAttemptsExhausted(retryAfter: max(1, ((hour + 1) * 3_600_000 - stamp + 999) / 1_000))
        }
        let codeHash = SCAWalletService.hash(code)
        let selector = SCAWalletService.selector(of: code)
        var pending: [SCAWalletStore.PendingActivation] = []
        for activation in try await store.activations(selector: selector, codeHash: codeHash) where activation.state == .pending {
            guard activation.activationFailures < Self.maximumFailuresPerActivation else { throw SCAError.activationLocked }
            pending.append(activation)
        }
        for activation in pending {
            guard let stored = activation.activationCodeHash,
                  ConstantTime.equal(Array(stored.utf8), Array(codeHash.utf8)) else { continue }
            if activation.activationExpiresAt > stamp { return activation }
        }
        let named = pending.isEmpty ? nil : selector
        try await store.recordActivationFailure(hour: hour, selector: named)
        if named != nil {
            logger.info("sca activation code wrong", metadata: ["wallet_ids": .string(pending.map(\.walletId).joined(separator: ","))])
        }
        throw SCAError.invalidActivationCode
    }
}
