import Foundation

/// The answer to a renewal (`200`): a new license token bound to the same key.
public struct LicenseRenewalResponse: Codable, Sendable, Hashable {
    public var instanceId: String
    public var licenseToken: String
    public var licenseExpiresAt: Date

    public init(instanceId: String, licenseToken: String, licenseExpiresAt: Date) {
        self.instanceId = instanceId
        self.licenseToken = licenseToken
        self.licenseExpiresAt = licenseExpiresAt
    }
}
