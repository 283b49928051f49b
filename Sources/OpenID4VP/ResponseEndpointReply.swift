import Foundation

/// OpenID4VP 1.0 §8.2 — the verifier's answer (HTTP 200, JSON) to a response posted to its `response_uri`: `{}`, or
/// `{"redirect_uri": …}` for a same-device flow, where the wallet sends the person next, with a `response_code` that
/// lets the verifier's page read the result.
public struct ResponseEndpointReply: Codable, Sendable, Hashable {
    public var redirectUri: String?

    public init(redirectUri: String? = nil) { self.redirectUri = redirectUri }

    enum CodingKeys: String, CodingKey {
        case redirectUri = "redirect_uri"
    }

    /// Read leniently: a `redirect_uri` that is not a string is absent.
    public init(from decoder: any Decoder) throws {
        redirectUri = try decoder.container(keyedBy: CodingKeys.self).lenient(String.self, .redirectUri)
    }

    /// `redirect` with `response_code=<code>` added to its query (the code is URL-safe as the verifier makes it).
    public static func redirectUri(_ redirect: String, responseCode: String) -> String {
        redirect + (redirect.contains("?") ? "&" : "?") + OpenID4VPIdentifiers.responseCode + "=" + responseCode
    }

    /// The reply of a body that is JSON, or nil.
    public static func decodeIfPresent(_ data: Data) -> ResponseEndpointReply? {
        try? JSONDecoder().decode(ResponseEndpointReply.self, from: data)
    }
}
