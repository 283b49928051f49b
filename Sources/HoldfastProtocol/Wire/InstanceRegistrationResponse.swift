import Foundation

/// The answer to a registration (`201`, README "Registration wire format", step 5). A `pending` or `rejected` instance has no usable
/// license: `licenseToken` and `licenseExpiresAt` are absent.
public struct InstanceRegistrationResponse: Codable, Sendable, Hashable {
    public var instanceId: String
    public var status: InstanceStatus
    public var licenseToken: String?
    public var licenseExpiresAt: Date?

    public init(instanceId: String, status: InstanceStatus, licenseToken: String?, licenseExpiresAt: Date?) {
        self.instanceId = instanceId
        self.status = status
        self.licenseToken = licenseToken
        self.licenseExpiresAt = licenseExpiresAt
    }
}
