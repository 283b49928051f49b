import HoldfastProtocol
import Foundation

/// One item of `GET /v1/holder/applications/{applicationId}/instances` (README "API").
public struct InstanceListItem: Codable, Sendable, Hashable {
    public var id: String
    public var appAttestationType: AppAttestationType
    public var registeredAt: Date
    public var licenseExpiresAt: Date?
    public var lastAttestedAt: Date?
    public var externalReferenceId: String?
    public var deviceDetails: DeviceDetails
    public var sdkDetails: SDKDetails
    /// An addition to the README's list, so that admins see `pending` instances. Absent means `registered`.
    public var status: InstanceStatus?

    public init(id: String, appAttestationType: AppAttestationType, registeredAt: Date, licenseExpiresAt: Date?,
                lastAttestedAt: Date?, externalReferenceId: String?, deviceDetails: DeviceDetails,
                sdkDetails: SDKDetails, status: InstanceStatus? = nil) {
        self.id = id
        self.appAttestationType = appAttestationType
        self.registeredAt = registeredAt
        self.licenseExpiresAt = licenseExpiresAt
        self.lastAttestedAt = lastAttestedAt
        self.externalReferenceId = externalReferenceId
        self.deviceDetails = deviceDetails
        self.sdkDetails = sdkDetails
        self.status = status
    }
}
