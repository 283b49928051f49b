/// OpenID4VP 1.0 §8.3 — the body a wallet posts to `response_uri` in response mode `direct_post.jwt`: one form
/// parameter, `response`, the encrypted authorization response (a compact JWE). The body is
/// `application/x-www-form-urlencoded` (§8.2), written by the caller (`HoldfastProtocol`'s `PercentEncoding.formBody`).
public struct DirectPostJWT: Sendable, Hashable {
    /// §8.2: the media type of the body.
    public static let mediaType = "application/x-www-form-urlencoded"

    public enum Parameter: String, Sendable {
        case response
    }

    /// The compact JWE.
    public var response: String

    public init(response: String) { self.response = response }

    /// Reads the body's parameters (name → values): `response` exactly once (RFC 6749 §3.2).
    public init(form: [String: [String]]) throws(OpenID4VPError) {
        guard let values = form[Parameter.response.rawValue], values.count == 1 else {
            throw OpenID4VPError(.parameterCount, "one response parameter is required", parameter: Parameter.response.rawValue)
        }
        response = values[0]
    }

    public var formParameters: [(name: String, value: String)] { [(Parameter.response.rawValue, response)] }
}
