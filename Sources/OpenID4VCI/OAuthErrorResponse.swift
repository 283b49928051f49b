import Foundation

/// RFC 6749 §5.2 — the error body of the token endpoint, which OpenID4VCI 1.0 §8.3.1 (credential endpoint) and §7
/// (nonce endpoint) reuse: `error` is the code a wallet acts on, `error_description` is for people.
public struct OAuthErrorResponse: Codable, Sendable, Hashable {
    public var error: OAuthErrorCode
    public var errorDescription: String?
    public var errorURI: String?

    public init(error: OAuthErrorCode, errorDescription: String? = nil, errorURI: String? = nil) {
        self.error = error
        self.errorDescription = errorDescription
        self.errorURI = errorURI
    }

    enum CodingKeys: String, CodingKey {
        case error
        case errorDescription = "error_description"
        case errorURI = "error_uri"
    }

    /// The body as an error response, or nil when it is not one (no `error` string).
    public static func decodeIfPresent(_ data: Data) -> OAuthErrorResponse? {
        try? JSONDecoder().decode(OAuthErrorResponse.self, from: data)
    }
}
