import Foundation

/// The answer to a key rotation (`200`): the same instance, a license token bound to the new key.
public struct KeyRotationResponse: Codable, Sendable, Hashable {
    public var instanceId: String
    public var licenseToken: String
    public var licenseExpiresAt: Date

    public init(instanceId: String, licenseToken: String, licenseExpiresAt: Date) {
        self.instanceId = instanceId
        self.licenseToken = licenseToken
        self.licenseExpiresAt = licenseExpiresAt
    }
}
