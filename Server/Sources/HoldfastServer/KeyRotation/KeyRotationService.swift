import Foundation
import HoldfastAdmin
import HoldfastProtocol
import JOSE
import Logging

/// Key rotation (docs/server-api.md "Instance calls"), after `InstanceAuthenticatorMiddleware` has checked the license token
/// and the DPoP proof of the current key.
struct KeyRotationService: Sendable {
    let instances: InstanceStore
    let keys: NewKeyVerification
    let issuer: LicenseIssuer
    let logger: Logger

    /// `POST /v1/holder/instances/{instanceId}/keys/rotate`: the new key attested like a registration over a fresh
    /// challenge; the id is kept; the old key (and every token bound to it) stops working at once.
    func rotate(_ body: KeyRotationRequest, instance: HolderInstance, application: HolderApplication,
                developmentMode: Bool, now: Date) async throws -> KeyRotationResponse {
        guard instance.status == .registered else { throw TetheringError.instancePending }
        let publicKey: InstancePublicKey
        do {
            publicKey = try InstancePublicKey(encoded: body.publicKey)
        } catch {
            throw ProblemError.invalidField("publicKey", code: ProblemDetails.FieldError.invalidValue, detail: error.description)
        }
        guard publicKey.encoded != instance.publicKey else {
            throw ProblemError.invalidField("publicKey", code: ProblemDetails.FieldError.unchanged, detail: "the new key must differ from the current one")
        }
        let verified = try await keys.verify(
            challenge: body.challenge, publicKey: publicKey, attestation: body.attestation, keyId: body.keyId,
            assertion: body.assertion, applicationId: instance.applicationId, application: application,
            developmentMode: developmentMode, now: now)
        let thumbprint = try publicKey.thumbprint()
        let license = try await issuer.license(instanceId: instance.id, applicationId: instance.applicationId,
                                               thumbprint: thumbprint,
                                               maxTimeOfflineInSecs: application.maxTimeOfflineInSecs, now: now)
        guard try await instances.rotate(id: instance.id, oldThumbprint: instance.keyThumbprint, to: verified,
                                         publicKey: publicKey.encoded, thumbprint: thumbprint,
                                         licenseExpiresAt: license.expiresAt, now: now) else {
            throw AuthenticationError.unauthenticated(.invalidToken, "the key was rotated or revoked by another request")
        }
        logger.info("instance key rotated", metadata: ["instance_id": .string(instance.id)])
        return KeyRotationResponse(instanceId: instance.id, licenseToken: license.token, licenseExpiresAt: license.expiresAt)
    }
}
