import Foundation
import HoldfastProtocol

/// What the SDK keeps per application id after a successful registration (DESIGN.md §1 T). Written
/// in one piece, only after the tenant confirmed the step it records, so that a crash leaves the previous whole
/// state or the next one — never half of each.
public struct TetheringState: Codable, Sendable, Hashable {
    public var applicationId: String
    public var instanceId: String
    public var status: InstanceStatus
    /// The `SecureArea` alias of the instance key.
    public var keyAlias: String
    /// `ios`, `macos` or `linux`: where the key lives.
    public var platform: String
    public var appAttestationType: AppAttestationType
    /// The App Attest key id (base64), for renewal assertions.
    public var attestationKeyId: String?
    public var registeredAt: Date
    public var keyRotatedAt: Date?
    /// Server time minus device time, learned from the tenant's `Date` header.
    public var clockOffsetMs: Int64
    public var licenseToken: String?
    public var licenseIssuedAt: Date?
    public var licenseExpiresAt: Date?

    public init(applicationId: String, instanceId: String, status: InstanceStatus, keyAlias: String, platform: String,
                appAttestationType: AppAttestationType, attestationKeyId: String?, registeredAt: Date,
                keyRotatedAt: Date?, clockOffsetMs: Int64, licenseToken: String?, licenseIssuedAt: Date?,
                licenseExpiresAt: Date?) {
        self.applicationId = applicationId
        self.instanceId = instanceId
        self.status = status
        self.keyAlias = keyAlias
        self.platform = platform
        self.appAttestationType = appAttestationType
        self.attestationKeyId = attestationKeyId
        self.registeredAt = registeredAt
        self.keyRotatedAt = keyRotatedAt
        self.clockOffsetMs = clockOffsetMs
        self.licenseToken = licenseToken
        self.licenseIssuedAt = licenseIssuedAt
        self.licenseExpiresAt = licenseExpiresAt
    }

    static var currentPlatform: String {
        #if os(iOS)
        "ios"
        #elseif os(macOS)
        "macos"
        #else
        "linux"
        #endif
    }
}

/// What the SDK keeps once the tenant answered `INSTANCE_REVOKED` (docs/sdk.md "Holder: the offline limit"): the
/// registration itself is forgotten, and this record makes the offline limit refuse the credential operations with
/// `INSTANCE_REVOKED` — across restarts — until a new registration of the application holds a license. Only that
/// clears it (`deleteLocalRegistration()` does not).
struct RevokedRegistration: Codable, Sendable, Hashable {
    /// The instance the tenant revoked (or rejected).
    var instanceId: String
    /// When the SDK learned it (the tenant's clock as the device estimates it).
    var revokedAt: Date

    /// Whether `state` is a registration made since, which holds a license: then the revocation no longer applies.
    func isSuperseded(by state: TetheringState?) -> Bool {
        guard let state else { return false }
        return state.instanceId != instanceId && state.licenseToken != nil
    }
}
