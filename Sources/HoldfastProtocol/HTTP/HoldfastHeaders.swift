import OpenID4VCI

/// HTTP header names and values of the tethering protocol (docs/server-api.md "API"; RFC 9449; the client attestation draft).
public enum HoldfastHeaders {
    /// `Authorization: DPoP <licenseToken>` (RFC 9449 §7.1).
    public static let authorization = "Authorization"
    /// The authorization scheme of instance calls.
    public static let dpopScheme = "DPoP"
    /// The proof header (RFC 9449 §4.1).
    public static let dpop = "DPoP"
    /// The server's nonce (RFC 9449 §8).
    public static let dpopNonce = "DPoP-Nonce"
    /// Server-sent events (HTML Living Standard §9.2.4): the last event id the client saw, to resume a feed.
    public static let lastEventID = "Last-Event-ID"
    /// The challenge of a 401 (RFC 9449 §7.1): `DPoP error="use_dpop_nonce", …`.
    public static let wwwAuthenticate = "WWW-Authenticate"
    /// The RFC 9449 §8 error value (`OAuthErrorCode.useDPoPNonce`).
    public static let useDPoPNonceError = OAuthErrorCode.useDPoPNonce.rawValue
    /// The server's clock (RFC 9110 §6.6.1), from which the SDK learns its clock offset.
    public static let date = "Date"
    /// The dev / QA bypass; only the value `true` means anything.
    public static let devMode = "X-Holdfast-Dev-Mode"
    public static let devModeEnabled = "true"
    /// draft-ietf-oauth-attestation-based-client-auth §4 and §5.1.
    public static let oauthClientAttestation = "OAuth-Client-Attestation"
    public static let oauthClientAttestationPoP = "OAuth-Client-Attestation-PoP"
    public static let contentType = "Content-Type"
    public static let jsonMediaType = "application/json"

    /// `DPoP <licenseToken>`.
    public static func authorizationValue(licenseToken: String) -> String {
        dpopScheme + " " + licenseToken
    }

    /// The token of a `DPoP <token>` authorization value (scheme compared case-insensitively, RFC 9110 §11.1);
    /// `nil` for another scheme or an empty token.
    public static func licenseToken(fromAuthorization value: String) -> String? {
        // Over UTF-8 bytes: Character operations break a 600-byte token into graphemes on every instance call.
        let bytes = value.utf8
        let space = UInt8(ascii: " "), tab = UInt8(ascii: "\t")
        var index = bytes.startIndex
        while index < bytes.endIndex, bytes[index] == space { index = bytes.index(after: index) }
        let schemeStart = index
        while index < bytes.endIndex, bytes[index] != space { index = bytes.index(after: index) }
        let scheme = bytes[schemeStart..<index]
        guard scheme.count == 4,
              scheme.elementsEqual(dpopScheme.utf8, by: { $0 | 0x20 == $1 | 0x20 }) else { return nil }
        while index < bytes.endIndex, bytes[index] == space || bytes[index] == tab { index = bytes.index(after: index) }
        var end = bytes.endIndex
        while end > index, bytes[bytes.index(before: end)] == space || bytes[bytes.index(before: end)] == tab {
            end = bytes.index(before: end)
        }
        let token = bytes[index..<end]
        guard !token.isEmpty, !token.contains(where: { $0 == space || $0 == tab }) else { return nil }
        return String(value[index..<end])
    }

    /// The `WWW-Authenticate` value of a `use_dpop_nonce` 401 (RFC 9449 §8).
    public static let useDPoPNonceChallenge =
        #"DPoP error=""# + useDPoPNonceError + #"", error_description="Authorization server requires nonce in DPoP proof""#
}
