/// The stable machine codes of issue 5 (the `code` of every `ProblemDetails` and of the SDK's errors).
///
/// A string-backed struct rather than an enum, so that a code a newer server introduces still decodes (and can be
/// shown and logged) by an older SDK. Compare with the static members: `error.code == .invalidChallenge`.
public struct HoldfastErrorCode: RawRepresentable, Codable, Sendable, Hashable, ExpressibleByStringLiteral,
    CustomStringConvertible {
    public let rawValue: String

    public init(rawValue: String) { self.rawValue = rawValue }
    public init(_ rawValue: String) { self.rawValue = rawValue }
    public init(stringLiteral value: String) { self.rawValue = value }

    public init(from decoder: any Decoder) throws {
        rawValue = try decoder.singleValueContainer().decode(String.self)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }

    public var description: String { rawValue }

    /// True for the codes this version knows.
    public var isKnown: Bool { Self.serverCodes.contains(self) || Self.sdkCodes.contains(self) }

    // MARK: server codes (issue 5)
    /// The challenge's lifetime has passed.
    public static let challengeExpired: Self = "CHALLENGE_EXPIRED"
    /// The challenge is unknown or was already used (single use, even under concurrency).
    public static let invalidChallenge: Self = "INVALID_CHALLENGE"
    /// The attestation or assertion is malformed or does not verify.
    public static let invalidAttestation: Self = "INVALID_ATTESTATION"
    /// The application requires platform attestation and the request has none.
    public static let attestationRequired: Self = "ATTESTATION_REQUIRED"
    /// The platform attestation is well formed but refused (wrong app, counter, environment …); may be transient.
    public static let attestationFailed: Self = "ATTESTATION_FAILED"
    public static let applicationNotFound: Self = "APPLICATION_NOT_FOUND"
    public static let instanceNotFound: Self = "INSTANCE_NOT_FOUND"
    /// The instance was deleted or rejected: every token and proof of it is refused.
    public static let instanceRevoked: Self = "INSTANCE_REVOKED"
    /// The instance waits for an admin's approval.
    public static let instancePending: Self = "INSTANCE_PENDING"
    public static let invalidDPoPProof: Self = "INVALID_DPOP_PROOF"
    /// RFC 9449 §8 `use_dpop_nonce`: retry with the `DPoP-Nonce` the response carries.
    public static let useDPoPNonce: Self = "USE_DPOP_NONCE"
    public static let invalidToken: Self = "INVALID_TOKEN"
    /// The license token has expired (server) / the stored license has expired and no renewal succeeded (SDK).
    public static let licenseExpired: Self = "LICENSE_EXPIRED"
    /// `X-Holdfast-Dev-Mode` against an application that does not allow it.
    public static let devModeNotAllowed: Self = "DEV_MODE_NOT_ALLOWED"
    public static let validationFailed: Self = "VALIDATION_FAILED"
    public static let unauthorized: Self = "UNAUTHORIZED"
    public static let notFound: Self = "NOT_FOUND"
    public static let conflict: Self = "CONFLICT"
    public static let rateLimited: Self = "RATE_LIMITED"
    public static let payloadTooLarge: Self = "PAYLOAD_TOO_LARGE"
    public static let internalError: Self = "INTERNAL_ERROR"

    // MARK: SDK-only codes
    /// The tenant could not be reached, or answered with a 5xx after the bounded retries.
    public static let networkError: Self = "NETWORK_ERROR"
    /// The platform cannot attest keys and the fallback is not allowed.
    public static let attestationUnavailable: Self = "ATTESTATION_UNAVAILABLE"
    /// Another registration of this application is running.
    public static let registrationInProgress: Self = "REGISTRATION_IN_PROGRESS"
    /// `initialize(platformConfiguration:)` was not called: tethering is unavailable.
    public static let notConfigured: Self = "NOT_CONFIGURED"
    /// The secure store cannot be read now (locked device); nothing was assumed about its contents.
    public static let secureStorageUnavailable: Self = "SECURE_STORAGE_UNAVAILABLE"
    /// The secure store's contents are damaged.
    public static let secureStorageCorrupted: Self = "SECURE_STORAGE_CORRUPTED"
    /// The secure area (key store) failed.
    public static let secureAreaUnavailable: Self = "SECURE_AREA_UNAVAILABLE"
    /// The operation needs a registered instance.
    public static let notRegistered: Self = "NOT_REGISTERED"
    /// The server answered something that does not follow the protocol.
    public static let invalidResponse: Self = "INVALID_RESPONSE"

    /// Every server code of this version.
    public static let serverCodes: Set<Self> = [
        .challengeExpired, .invalidChallenge, .invalidAttestation, .attestationRequired, .attestationFailed,
        .applicationNotFound, .instanceNotFound, .instanceRevoked, .instancePending, .invalidDPoPProof, .useDPoPNonce,
        .invalidToken, .licenseExpired, .devModeNotAllowed, .validationFailed, .unauthorized, .notFound, .conflict,
        .rateLimited, .payloadTooLarge, .internalError,
    ]

    /// Every SDK-only code of this version.
    public static let sdkCodes: Set<Self> = [
        .networkError, .attestationUnavailable, .registrationInProgress, .notConfigured, .secureStorageUnavailable,
        .secureStorageCorrupted, .secureAreaUnavailable, .notRegistered, .invalidResponse,
    ]
}
