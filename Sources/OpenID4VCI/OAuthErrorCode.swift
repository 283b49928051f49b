/// The `error` of an OAuth-shaped error response (RFC 6749 §5.2, `OAuthErrorResponse`) and of a `WWW-Authenticate`
/// challenge (RFC 6750 §3, RFC 9449 §7.1): the one set of these codes, which the server answers and the SDK reads.
/// Open, as the wire may grow: a code this version does not know is kept as it came (`init(rawValue:)`).
public struct OAuthErrorCode: RawRepresentable, Codable, Sendable, Hashable, CustomStringConvertible {
    public let rawValue: String

    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    public init(from decoder: any Decoder) throws {
        rawValue = try decoder.singleValueContainer().decode(String.self)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }

    public var description: String { rawValue }

    // RFC 6749 §5.2 — the token endpoint.
    public static let invalidRequest = OAuthErrorCode(rawValue: "invalid_request")
    public static let invalidClient = OAuthErrorCode(rawValue: "invalid_client")
    public static let invalidGrant = OAuthErrorCode(rawValue: "invalid_grant")
    public static let unsupportedGrantType = OAuthErrorCode(rawValue: "unsupported_grant_type")
    /// draft-ietf-oauth-attestation-based-client-auth: the client attestation has expired; get a fresh one.
    public static let useFreshAttestation = OAuthErrorCode(rawValue: "use_fresh_attestation")

    // RFC 6750 §3.1 and RFC 9449 §7.1, §8 — a protected resource and its DPoP proof.
    public static let invalidToken = OAuthErrorCode(rawValue: "invalid_token")
    public static let invalidDPoPProof = OAuthErrorCode(rawValue: "invalid_dpop_proof")
    public static let useDPoPNonce = OAuthErrorCode(rawValue: "use_dpop_nonce")
    /// RFC 6750 §3.1: the token is good but its scope does not cover the request.
    public static let insufficientScope = OAuthErrorCode(rawValue: "insufficient_scope")

    // OpenID4VCI 1.0 §8.3.1.2 — the credential endpoint.
    public static let invalidCredentialRequest = OAuthErrorCode(rawValue: "invalid_credential_request")
    public static let unknownCredentialConfiguration = OAuthErrorCode(rawValue: "unknown_credential_configuration")
    public static let invalidProof = OAuthErrorCode(rawValue: "invalid_proof")
    public static let invalidNonce = OAuthErrorCode(rawValue: "invalid_nonce")
    public static let credentialRequestDenied = OAuthErrorCode(rawValue: "credential_request_denied")

    // OpenID4VCI 1.0 §11.3 — the notification endpoint.
    public static let invalidNotificationId = OAuthErrorCode(rawValue: "invalid_notification_id")
    public static let invalidNotificationRequest = OAuthErrorCode(rawValue: "invalid_notification_request")

    /// Every code of this set, for the tests that tie it to the server and the SDK.
    public static let all: [OAuthErrorCode] = [
        .invalidRequest, .invalidClient, .invalidGrant, .unsupportedGrantType, .useFreshAttestation, .invalidToken, .invalidDPoPProof,
        .useDPoPNonce, .insufficientScope, .invalidCredentialRequest, .unknownCredentialConfiguration, .invalidProof, .invalidNonce,
        .credentialRequestDenied, .invalidNotificationId, .invalidNotificationRequest,
    ]
}
