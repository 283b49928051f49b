import Foundation
import HoldfastAdmin
import HoldfastProtocol
import JOSE
import Logging

/// License renewal (docs/server-api.md "Instance calls"), after `InstanceAuthenticatorMiddleware` has checked the license token
/// (an expired one is accepted) and the DPoP proof.
struct LicenseRenewalService: Sendable {
    let instances: InstanceStore
    let challenges: ChallengeStore
    let evidence: KeyEvidenceVerifier
    let issuer: LicenseIssuer

    /// `POST /v1/holder/instances/{instanceId}/license`. Where the application requires attestation (and the dev
    /// bypass does not apply), fresh evidence over a fresh challenge and the current key: an App Attest assertion
    /// (counter checked and stored) or an Android chain. Otherwise the DPoP proof suffices.
    func renew(_ body: LicenseRenewalRequest, instance: HolderInstance, application: HolderApplication,
               developmentMode: Bool, now: Date) async throws -> LicenseRenewalResponse {
        guard instance.status == .registered else { throw TetheringError.instancePending }
        var attestedAt: Date?
        var counter: (old: Int64, new: Int64)?
        var attestation: InstanceAttestation?
        if application.requiresAttestation, !developmentMode {
            guard body.appAttestAssertion != nil || body.attestation != nil else { throw TetheringError.attestationRequired }
            guard let challenge = body.challenge else {
                throw ProblemError.invalidField("challenge", code: ProblemDetails.FieldError.required, detail: "fresh evidence needs a fresh challenge")
            }
            try await challenges.consume(challenge, applicationId: instance.applicationId, now: now)
            let nonce = BindingNonce(challenge: challenge, encodedPublicKey: instance.publicKey)
            switch application.platform {
            case .ios(let settings):
                guard let assertion = body.appAttestAssertion else { throw TetheringError.attestationRequired }
                let next = try evidence.verifyAssertion(assertion, instance: instance, nonce: nonce, settings: settings)
                counter = (instance.appAttestCounter ?? 0, next)
            case .android(let settings):
                guard case .array(let items)? = body.attestation else { throw TetheringError.attestationRequired }
                let payload: PlatformAttestationPayload
                do {
                    payload = try PlatformAttestationPayload(attestation: .array(items), keyId: nil)
                } catch {
                    throw TetheringError.invalidAttestation(error.description)
                }
                guard case .androidKeyAttestation(let chain) = payload else { throw TetheringError.attestationRequired }
                let key = try InstancePublicKey(encoded: instance.publicKey)
                let fresh = try await evidence.verifyAndroid(chain: chain, nonce: nonce, publicKey: key, settings: settings, at: now)
                attestation = (instance.attestation ?? InstanceAttestation()).updated(with: fresh)
            }
            attestedAt = now
        }
        let license = try await issuer.license(instanceId: instance.id, applicationId: instance.applicationId,
                                               thumbprint: instance.keyThumbprint,
                                               maxTimeOfflineInSecs: application.maxTimeOfflineInSecs, now: now)
        guard try await instances.recordLicense(id: instance.id, expiresAt: license.expiresAt,
                                                attestedAt: attestedAt, counter: counter, attestation: attestation) else {
            // The counter moved (a concurrent renewal) or the instance was revoked meanwhile.
            if try await instances.get(id: instance.id)?.revokedAt != nil { throw AuthenticationError.instanceRevoked() }
            throw TetheringError.attestationFailed("COUNTER_NOT_INCREASING: another renewal used this counter first")
        }
        return LicenseRenewalResponse(instanceId: instance.id, licenseToken: license.token, licenseExpiresAt: license.expiresAt)
    }
}
