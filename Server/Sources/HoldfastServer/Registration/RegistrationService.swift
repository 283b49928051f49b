import Foundation
import HoldfastAdmin
import HoldfastProtocol
import JOSE
import Logging

/// The registration protocol (docs/server-api.md "Registration wire format") on the server: challenges (step 1) and registration (step 5).
///
/// Order of the checks: the application exists; the request is well formed (nothing is consumed by a malformed
/// request); the challenge is consumed (recorded as spent — from here on it is spent, whatever happens next); the binding
/// nonce is recomputed from the challenge and `publicKey` strings; the evidence is verified; the instance is
/// stored. `pending` when the application has `manualApproval`, with no license until an admin approves.
struct RegistrationService: Sendable {
    let applications: HolderApplicationService
    let instances: InstanceStore
    let keys: NewKeyVerification
    let issuer: LicenseIssuer
    /// Where instance ids are drawn from.
    let random: any RandomSource
    let logger: Logger

    static let maximumDetailLength = 200
    static let maximumExternalReferenceLength = 255

    func register(_ request: InstanceRegistrationRequest, application: HolderApplication, developmentMode: Bool,
                  now: Date) async throws -> InstanceRegistrationResponse {
        let applicationId = application.id ?? ""
        let publicKey = try Self.validate(request)
        let verified = try await keys.verify(
            challenge: request.challenge, publicKey: publicKey, attestation: request.attestation, keyId: request.keyId,
            assertion: request.assertion, integrityToken: request.integrityToken, integrityTokenRequired: true,
            applicationId: applicationId, application: application,
            developmentMode: developmentMode, now: now)
        let status: InstanceStatus = application.manualApproval == true ? .pending : .registered
        let instanceId = random.identifier()
        let thumbprint = try publicKey.thumbprint()
        var license: (token: String, expiresAt: Date)?
        if status == .registered {
            license = try await issuer.license(instanceId: instanceId, applicationId: applicationId, thumbprint: thumbprint,
                                               maxTimeOfflineInSecs: application.maxTimeOfflineInSecs, now: now)
        }
        let instance = HolderInstance(
            id: instanceId, applicationId: applicationId, platform: application.platform.holderPlatform,
            publicKey: publicKey.encoded, keyThumbprint: thumbprint, status: status, appAttestationType: verified.type,
            appAttestKeyId: verified.appAttest?.keyId, appAttestPublicKey: verified.appAttest?.publicKey,
            appAttestCounter: verified.appAttest?.counter, developmentMode: developmentMode, registeredAt: now,
            lastAttestedAt: verified.type == .none ? nil : now, licenseExpiresAt: license?.expiresAt, keyRotatedAt: nil,
            revokedAt: nil, deviceDetails: request.deviceDetails, sdkDetails: request.sdkDetails,
            externalReferenceId: request.externalReferenceId, attestation: verified.attestation)
        try await instances.insert(instance)
        logger.info("instance registered", metadata: [
            "application_id": .string(applicationId), "instance_id": .string(instanceId),
            "status": .string(status.rawValue), "attestation": .string(verified.type.rawValue),
            "development_mode": .stringConvertible(developmentMode),
        ])
        return InstanceRegistrationResponse(instanceId: instanceId, status: status, licenseToken: license?.token,
                                            licenseExpiresAt: license?.expiresAt)
    }

    /// Field checks that need no state; every failing field at once.
    static func validate(_ request: InstanceRegistrationRequest) throws -> InstancePublicKey {
        var errors: [ProblemDetails.FieldError] = []
        func fail(_ field: String, _ code: String, _ detail: String) {
            errors.append(ProblemDetails.FieldError(field: field, code: code, detail: detail))
        }
        let details = request.deviceDetails
        HolderApplicationValidator.text(details.deviceModel, field: "deviceDetails.deviceModel", maximum: maximumDetailLength, fail)
        HolderApplicationValidator.text(details.deviceMake, field: "deviceDetails.deviceMake", maximum: maximumDetailLength, fail)
        HolderApplicationValidator.text(details.osVersion, field: "deviceDetails.osVersion", maximum: maximumDetailLength, fail)
        HolderApplicationValidator.text(request.sdkDetails.sdkVersion, field: "sdkDetails.sdkVersion",
                                        maximum: maximumDetailLength, fail)
        if let reference = request.externalReferenceId {
            HolderApplicationValidator.text(reference, field: "externalReferenceId", maximum: maximumExternalReferenceLength, fail)
        }
        if request.challenge.isEmpty { fail("challenge", ProblemDetails.FieldError.required, "must not be empty") }
        var publicKey: InstancePublicKey?
        do {
            publicKey = try InstancePublicKey(encoded: request.publicKey)
        } catch {
            fail("publicKey", ProblemDetails.FieldError.invalidValue, error.description)
        }
        guard errors.isEmpty, let publicKey else { throw ProblemError.validation(errors) }
        return publicKey
    }
}
