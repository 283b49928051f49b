import Foundation
import HoldfastAdmin
import HoldfastProtocol

/// One registered app instance (docs/server-api.md "Registration wire format", step 5), as stored.
public struct HolderInstance: Sendable, Hashable {
    public var id: String
    public var applicationId: String
    public var platform: HolderPlatform
    /// `InstancePublicKey.encoded` of the current key.
    public var publicKey: String
    /// RFC 7638 thumbprint of the current key (`cnf.jkt`).
    public var keyThumbprint: String
    public var status: InstanceStatus
    public var appAttestationType: AppAttestationType
    /// App Attest key id (standard base64) and key (standard base64 of the SEC1 point), when attested by App Attest.
    public var appAttestKeyId: String?
    public var appAttestPublicKey: String?
    public var appAttestCounter: Int64?
    /// Registered through the dev / QA bypass.
    public var developmentMode: Bool
    public var registeredAt: Date
    public var lastAttestedAt: Date?
    public var licenseExpiresAt: Date?
    public var keyRotatedAt: Date?
    public var revokedAt: Date?
    public var deviceDetails: DeviceDetails
    public var sdkDetails: SDKDetails
    public var externalReferenceId: String?
    /// What the platform evidence showed at the last attestation (registration, rotation, renewal); nil when none did.
    public var attestation: InstanceAttestation? = nil

    /// The list item of `GET …/instances`.
    public var listItem: InstanceListItem {
        InstanceListItem(id: id, appAttestationType: appAttestationType, registeredAt: registeredAt,
                         licenseExpiresAt: licenseExpiresAt, lastAttestedAt: lastAttestedAt,
                         externalReferenceId: externalReferenceId, deviceDetails: deviceDetails, sdkDetails: sdkDetails,
                         status: status, attestation: attestation ?? InstanceAttestation())
    }
}
