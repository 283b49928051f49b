import Foundation

/// OpenID4VCI 1.0 §6.2 (RFC 6749 §5.1) — the token response. With DPoP (RFC 9449 §5) `token_type` is `DPoP`.
public struct TokenResponse: Codable, Sendable, Hashable {
    public var accessToken: String
    public var tokenType: String
    public var expiresIn: Int?
    public var refreshToken: String?
    public var scope: String?
    /// A `c_nonce` in the token response, as drafts before 1.0 had it (1.0 has the nonce endpoint, §7).
    public var cNonce: String?

    public init(accessToken: String, tokenType: String, expiresIn: Int? = nil, refreshToken: String? = nil,
                scope: String? = nil, cNonce: String? = nil) {
        self.accessToken = accessToken
        self.tokenType = tokenType
        self.expiresIn = expiresIn
        self.refreshToken = refreshToken
        self.scope = scope
        self.cNonce = cNonce
    }

    enum CodingKeys: String, CodingKey {
        case accessToken = "access_token"
        case tokenType = "token_type"
        case expiresIn = "expires_in"
        case refreshToken = "refresh_token"
        case scope
        case cNonce = "c_nonce"
    }

    /// RFC 9449 §5: the `token_type` of a DPoP-bound access token (compared without regard to case, RFC 6749 §5.1).
    public static let dpopTokenType = "DPoP"

    public var isDPoPBound: Bool { tokenType.lowercased() == Self.dpopTokenType.lowercased() }

    public static func decode(_ data: Data) throws(OpenID4VCIError) -> TokenResponse {
        try OpenID4VCIJSON.decode(TokenResponse.self, from: data, what: "the token response")
    }
}
