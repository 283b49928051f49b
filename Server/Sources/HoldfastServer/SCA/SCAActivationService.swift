import Attestation
import Ephemeral
import Foundation
import HoldfastAdmin
import HoldfastProtocol
import JOSE
import Logging
import Metrics

/// A device's activation of its wallet (docs/server-api.md "SCA wallet (back end)"), with the registration core's challenge store and
/// evidence verifier.
struct SCAActivationService: Sendable {
    /// Wrong codes for one activation (its selector) before it refuses every code, the right one too.
    static let maximumFailuresPerActivation: Int64 = 5
    /// Wrong codes one source (`SourceKey`: an IPv4 address, an IPv6 /64) may give in an hour; past them its
    /// activations are `429 ACTIVATION_ATTEMPTS_EXHAUSTED` until the hour ends (docs/server-api.md "SCA wallet (back end)").
    static let maximumFailuresPerSource: Int64 = 20
    /// Every wrong code, on this node (Prometheus sums the nodes).
    static let failuresMetric = "holdfast_sca_activation_failures_total"
    /// The warning logged each time the tenant's wrong codes of the hour, over all sources, reach a multiple of
    /// `warningFailuresPerHour`: an operator learns of guessing spread over many sources; nothing is stopped, as the
    /// per-activation lock already bounds what any number of guesses can win (docs/server-api.md "SCA wallet (back end)").
    static let failuresEvent = "sca.activation_failures_high"

    let store: SCAWalletStore
    let applications: HolderApplicationService
    let keys: NewKeyVerification
    let logger: Logger
    /// The per-source counts, in the ephemeral store so that every node sees each source's wrong codes.
    let counters: any EphemeralStore
    let metrics: HTTPMetrics
    var warningFailuresPerHour: Int64 = 1_000

    /// Turns the one-time code into the wallet: the code must be unused and unexpired; the challenge (of the wallet's
    /// holder application) is consumed and the key's evidence verified as at instance registration; then, in one
    /// conditional update, the code is spent and the key stored — of two activations racing with one code, one wins.
    func activate(_ request: SCAActivationRequest, source: SourceKey?, now: Date) async throws -> SCAActivationResponse {
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
        let pending = try await matchingActivation(code: request.activationCode, source: source, now: now)
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
                                                 at: now, maximumFailures: Self.maximumFailuresPerActivation)
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
    /// the key's evidence). In order (docs/server-api.md "SCA wallet (back end)"):
    /// 1. the source's budget: a source (`SourceKey`) that gave `maximumFailuresPerSource` wrong codes this hour is
    ///    `429 ACTIVATION_ATTEMPTS_EXHAUSTED` until the hour ends; a request without an IP source (a Unix socket) has no
    ///    such budget;
    /// 2. the code's selector names the activation; one with `maximumFailuresPerActivation` wrong codes is
    ///    `400 ACTIVATION_LOCKED`, whatever the code;
    /// 3. the code's SHA-256, compared in constant time; a wrong, used or expired code is `400 INVALID_ACTIVATION_CODE`,
    ///    counted against its source, in the tenant's hourly count (`failuresMetric`, a warning per
    ///    `warningFailuresPerHour`) and, when its selector names a pending activation, against that activation.
    func matchingActivation(code: String, source: SourceKey?, now: Date) async throws -> SCAWalletStore.PendingActivation {
        let hour = SCAWalletStore.activationHour(of: now)
        let restOfHour = SCAWalletStore.end(ofActivationHour: hour).timeIntervalSince(now)
        let sourceKey = source.map { "holdfast:sca:activation-failures:\(hour):\($0)" }
        if let sourceKey, let value = try await counters.get(sourceKey),
           let failures = Int64(String(decoding: value, as: UTF8.self)), failures >= Self.maximumFailuresPerSource {
            throw SCAError.activationAttemptsExhausted(retryAfter: max(1, Int64(restOfHour.rounded(.up))))
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
            if activation.activationExpiresAt > now { return activation }
        }
        if let sourceKey {
            // The key names its hour; the extra minute covers nodes whose clocks disagree about when the hour ends.
            _ = try await counters.increment(sourceKey, window: .seconds(restOfHour) + .seconds(60))
        }
        let named = pending.isEmpty ? nil : selector
        let tenantFailures = try await store.recordActivationFailure(hour: hour, selector: named)
        Counter(label: Self.failuresMetric, factory: metrics.factory).increment()
        if named != nil {
            logger.info("sca activation code wrong", metadata: ["wallet_ids": .string(pending.map(\.walletId).joined(separator: ","))])
        }
        if warningFailuresPerHour > 0, tenantFailures % warningFailuresPerHour == 0 {
            logger.warning("sca activation codes: many wrong codes this hour over all sources", metadata: [
                "event": .string(Self.failuresEvent), "failures": .stringConvertible(tenantFailures), "hour": .stringConvertible(hour),
            ])
        }
        throw SCAError.invalidActivationCode
    }
}
