import HoldfastProtocol
import Foundation

/// One item of `GET /v1/holder/applications/{applicationId}/instances` (docs/server-api.md "API").
public struct InstanceListItem: Codable, Sendable, Hashable {
    public var id: String
    public var appAttestationType: AppAttestationType
    public var registeredAt: Date
    public var licenseExpiresAt: Date?
    public var lastAttestedAt: Date?
    public var externalReferenceId: String?
    public var deviceDetails: DeviceDetails
    public var sdkDetails: SDKDetails
    /// An addition to the instance list of docs/server-api.md "API", so that admins see `pending` instances. Absent means `registered`.
    public var status: InstanceStatus?
    /// What the device's platform evidence showed when it was last attested (docs/server-api.md "Android Key Attestation
    /// policy"); every member null when nothing was (and when an older tenant's answer lacks it).
    public var attestation: InstanceAttestation

    public init(id: String, appAttestationType: AppAttestationType, registeredAt: Date, licenseExpiresAt: Date?,
                lastAttestedAt: Date?, externalReferenceId: String?, deviceDetails: DeviceDetails,
                sdkDetails: SDKDetails, status: InstanceStatus? = nil, attestation: InstanceAttestation = InstanceAttestation()) {
        self.id = id
        self.appAttestationType = appAttestationType
        self.registeredAt = registeredAt
        self.licenseExpiresAt = licenseExpiresAt
        self.lastAttestedAt = lastAttestedAt
        self.externalReferenceId = externalReferenceId
        self.deviceDetails = deviceDetails
        self.sdkDetails = sdkDetails
        self.status = status
        self.attestation = attestation
    }

    private enum CodingKeys: String, CodingKey {
        case id, appAttestationType, registeredAt, licenseExpiresAt, lastAttestedAt, externalReferenceId, deviceDetails,
             sdkDetails, status, attestation
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(String.self, forKey: .id)
        appAttestationType = try container.decode(AppAttestationType.self, forKey: .appAttestationType)
        registeredAt = try container.decode(Date.self, forKey: .registeredAt)
        licenseExpiresAt = try container.decodeIfPresent(Date.self, forKey: .licenseExpiresAt)
        lastAttestedAt = try container.decodeIfPresent(Date.self, forKey: .lastAttestedAt)
        externalReferenceId = try container.decodeIfPresent(String.self, forKey: .externalReferenceId)
        deviceDetails = try container.decode(DeviceDetails.self, forKey: .deviceDetails)
        sdkDetails = try container.decode(SDKDetails.self, forKey: .sdkDetails)
        status = try container.decodeIfPresent(InstanceStatus.self, forKey: .status)
        attestation = try container.decodeIfPresent(InstanceAttestation.self, forKey: .attestation) ?? InstanceAttestation()
    }

    /// Every documented member is written, `null` when it has no value (an assertion registration has no
    /// `lastAttestedAt`, a pending instance no `licenseExpiresAt`), so that clients always see it.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(appAttestationType, forKey: .appAttestationType)
        try container.encode(registeredAt, forKey: .registeredAt)
        try container.encode(licenseExpiresAt, forKey: .licenseExpiresAt)
        try container.encode(lastAttestedAt, forKey: .lastAttestedAt)
        try container.encode(externalReferenceId, forKey: .externalReferenceId)
        try container.encode(deviceDetails, forKey: .deviceDetails)
        try container.encode(sdkDetails, forKey: .sdkDetails)
        try container.encode(status, forKey: .status)
        try container.encode(attestation, forKey: .attestation)
    }
}
