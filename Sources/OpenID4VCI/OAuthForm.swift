import Foundation

/// The `application/x-www-form-urlencoded` encoding OAuth requests are sent in (RFC 6749 Appendix B, the HTML form
/// encoding): the token request here, and the OpenID4VP `direct_post` response.
public enum OAuthForm {
    public static let mediaType = "application/x-www-form-urlencoded"

    /// Letters, digits and `-._*` as they are, a space as `+`, every other byte of the UTF-8 percent-encoded.
    public static func encode(_ value: String) -> String {
        let allowed = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._*")
        return (value.addingPercentEncoding(withAllowedCharacters: allowed) ?? value).replacingOccurrences(of: "%20", with: "+")
    }

    /// `name=value` pairs joined by `&`, each name and value encoded.
    public static func body(_ parameters: [(name: String, value: String)]) -> String {
        parameters.map { encode($0.name) + "=" + encode($0.value) }.joined(separator: "&")
    }
}
