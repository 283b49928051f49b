import Foundation
import HoldfastProtocol
import JOSE
import Logging

/// The instance's own calls (issue 5): license renewal, key rotation, wallet attestation. Each runs after
/// `InstanceAuthenticator` has checked the license token and DPoP proof.
struct LicenseService: Sendable {
    let applications: HolderApplicationService
    let instances: InstanceStore
    let challenges: ChallengeStore
    let evidence: KeyEvidenceVerifier
    let issuer: LicenseIssuer
    let logger: Logger

    /// `POST /v1/holder/instances/{instanceId}/license`. Where the application requires attestation (and the dev
    /// bypass does not apply), fresh evidence over a fresh challenge and the current key: an App Attest assertion
    /// (counter checked and stored) or an Android chain. Otherwise the DPoP proof suffices.
    func renew(_ body: LicenseRenewalRequest, instance: HolderInstance, application: HolderApplication,
               developmentMode: Bool, now: Date = Date()) async throws -> LicenseRenewalResponse {
        guard instance.status == .registered else { throw TetheringError.instancePending }
        var attestedAt: Int64?
        var counter: (old: Int64, new: Int64)?
        if application.requiresAttestation, !developmentMode {
            guard body.appAttestAssertion != nil || body.attestation != nil else { throw TetheringError.attestationRequired }
            guard let challenge = body.challenge else {
                throw ProblemError.invalidField("challenge", code: "REQUIRED", detail: "fresh evidence needs a fresh challenge")
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
                try await evidence.verifyAndroid(chain: chain, nonce: nonce, publicKey: key, settings: settings, at: now)
            }
            attestedAt = Timestamp.milliseconds(now)
        }
        let license = try await issuer.license(instanceId: instance.id, applicationId: instance.applicationId,
                                               thumbprint: instance.keyThumbprint,
                                               maxTimeOfflineInSecs: application.maxTimeOfflineInSecs, now: now)
        guard try await instances.recordLicense(id: instance.id, expiresAt: Timestamp.milliseconds(license.expiresAt),
                                                attestedAt: attestedAt, counter: counter) else {
            // The counter moved (a concurrent renewal) or the instance was revoked meanwhile.
            if try await instances.get(id: instance.id)?.revokedAt != nil { throw TetheringError.instanceRevoked() }
            throw TetheringError.attestationFailed("COUNTER_NOT_INCREASING: another renewal used this counter first")
        }
        return LicenseRenewalResponse(instanceId: instance.id, licenseToken: license.token, licenseExpiresAt: license.expiresAt)
    }

    /// `POST /v1/holder/instances/{instanceId}/keys/rotate`: the new key attested like a registration over a fresh
    /// challenge; the id is kept; the old key (and every token bound to it) stops working at once.
    func rotate(_ body: KeyRotationRequest, instance: HolderInstance, application: HolderApplication,
                developmentMode: Bool, now: Date = Date()) async throws -> KeyRotationResponse {
        guard instance.status == .registered else { throw TetheringError.instancePending }
        let publicKey: InstancePublicKey
        do {
            publicKey = try InstancePublicKey(encoded: body.publicKey)
        } catch {
            throw ProblemError.invalidField("publicKey", code: "INVALID_VALUE", detail: error.description)
        }
        guard publicKey.encoded != instance.publicKey else {
            throw ProblemError.invalidField("publicKey", code: "UNCHANGED", detail: "the new key must differ from the current one")
        }
        try await challenges.consume(body.challenge, applicationId: instance.applicationId, now: now)
        let nonce = BindingNonce(challenge: body.challenge, publicKey: publicKey)
        let verified = try await evidence.verify(
            attestation: body.attestation, keyId: body.keyId, assertion: body.assertion, publicKey: publicKey,
            nonce: nonce, application: application, developmentMode: developmentMode, at: now)
        let thumbprint = try publicKey.thumbprint()
        let license = try await issuer.license(instanceId: instance.id, applicationId: instance.applicationId,
                                               thumbprint: thumbprint,
                                               maxTimeOfflineInSecs: application.maxTimeOfflineInSecs, now: now)
        guard try await instances.rotate(id: instance.id, oldThumbprint: instance.keyThumbprint, to: verified,
                                         publicKey: publicKey.encoded, thumbprint: thumbprint,
                                         licenseExpiresAt: Timestamp.milliseconds(license.expiresAt),
                                         now: Timestamp.milliseconds(now)) else {
            throw TetheringError.unauthenticated(.invalidToken, "the key was rotated or revoked by another request")
        }
        logger.info("instance key rotated", metadata: ["instance_id": .string(instance.id)])
        return KeyRotationResponse(instanceId: instance.id, licenseToken: license.token, licenseExpiresAt: license.expiresAt)
    }

    /// `POST /v1/holder/instances/{instanceId}/wallet-attestations`.
    func walletAttestation(instance: HolderInstance, application: HolderApplication,
                           now: Date = Date()) async throws -> WalletAttestationResponse {
        guard instance.status == .registered else { throw TetheringError.instancePending }
        let key = try InstancePublicKey(encoded: instance.publicKey)
        return try await issuer.walletAttestation(clientId: application.clientId, instanceKey: key.jwk, now: now)
    }
}

extension Timestamp {
    static func milliseconds(_ date: Date) -> Int64 { Int64((date.timeIntervalSince1970 * 1000).rounded(.down)) }
}
