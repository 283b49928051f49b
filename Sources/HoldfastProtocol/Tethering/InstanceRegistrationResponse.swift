import Foundation

/// The answer to a registration (`201`, docs/server-api.md "Registration wire format", step 5). A `pending` or `rejected` instance has no usable
/// license: `licenseToken` and `licenseExpiresAt` are `null` (written, so that clients always see the members).
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

    private enum CodingKeys: String, CodingKey {
        case instanceId, status, licenseToken, licenseExpiresAt
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(instanceId, forKey: .instanceId)
        try container.encode(status, forKey: .status)
        try container.encode(licenseToken, forKey: .licenseToken)
        try container.encode(licenseExpiresAt, forKey: .licenseExpiresAt)
    }
}
