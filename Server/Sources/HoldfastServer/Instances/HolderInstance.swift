import Foundation
import HoldfastAdmin
import HoldfastProtocol
import SQLKit

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

    /// Device and SDK details repeat across a fleet (one model, one OS version, one SDK release): decoded once per text.
    private static let deviceDetailsCache = DecodedJSONCache<DeviceDetails>(capacity: 1024)
    private static let sdkDetailsCache = DecodedJSONCache<SDKDetails>(capacity: 256)
    private static let attestationCache = DecodedJSONCache<InstanceAttestation>(capacity: 256)

    static func from(_ row: any SQLRow) throws -> HolderInstance {
        func optionalTime(_ column: String) throws -> Date? {
            try row.decodeNil(column: column) ? nil : Timestamp.date(try row.decode(column: column, as: Int64.self))
        }
        func optionalText(_ column: String) throws -> String? {
            try row.decodeNil(column: column) ? nil : try row.decode(column: column, as: String.self)
        }
        func value<T: RawRepresentable>(_ column: String, as type: T.Type) throws -> T where T.RawValue == String {
            let text = try row.decode(column: column, as: String.self)
            guard let value = T(rawValue: text) else {
                throw StorageError(code: StorageError.Code.corruptRow, message: "holder_instances.\(column) has the unknown value \(text)")
            }
            return value
        }
        return HolderInstance(
            id: try row.decode(column: "id", as: String.self),
            applicationId: try row.decode(column: "application_id", as: String.self),
            platform: try value("platform", as: HolderPlatform.self),
            publicKey: try row.decode(column: "public_key", as: String.self),
            keyThumbprint: try row.decode(column: "key_thumbprint", as: String.self),
            status: try value("status", as: InstanceStatus.self),
            appAttestationType: try value("app_attestation_type", as: AppAttestationType.self),
            appAttestKeyId: try optionalText("app_attest_key_id"),
            appAttestPublicKey: try optionalText("app_attest_public_key"),
            appAttestCounter: try row.decodeNil(column: "app_attest_counter") ? nil
                : try row.decode(column: "app_attest_counter", as: Int64.self),
            developmentMode: try row.decode(column: "development_mode", as: Int64.self) != 0,
            registeredAt: Timestamp.date(try row.decode(column: "registered_at", as: Int64.self)),
            lastAttestedAt: try optionalTime("last_attested_at"),
            licenseExpiresAt: try optionalTime("license_expires_at"),
            keyRotatedAt: try optionalTime("key_rotated_at"),
            revokedAt: try optionalTime("revoked_at"),
            deviceDetails: try deviceDetailsCache.decode(try row.decode(column: "device_details", as: String.self)),
            sdkDetails: try sdkDetailsCache.decode(try row.decode(column: "sdk_details", as: String.self)),
            externalReferenceId: try optionalText("external_reference_id"),
            attestation: try optionalText("attestation").map { try attestationCache.decode($0) })
    }
}
