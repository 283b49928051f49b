/// What the server knows about the request a DPoP proof came with (RFC 9449 §4.3).
public struct DPoPRequest: Sendable, Hashable {
    /// The HTTP method, compared exactly with `htm`.
    public var method: String
    /// The request URI as the server sees it (query and fragment ignored).
    public var uri: String
    /// The access token presented with the request: then `ath` must be its hash (RFC 9449 §7.1).
    public var accessToken: String?
    /// The nonce the server demands (RFC 9449 §8): then the proof's `nonce` must equal it.
    public var expectedNonce: String?
    /// The thumbprint the access token is bound to (`cnf.jkt`, RFC 9449 §6): then the proof key must have it.
    public var expectedThumbprint: String?

    public init(method: String, uri: String, accessToken: String? = nil, expectedNonce: String? = nil,
                expectedThumbprint: String? = nil) {
        self.method = method
        self.uri = uri
        self.accessToken = accessToken
        self.expectedNonce = expectedNonce
        self.expectedThumbprint = expectedThumbprint
    }
}
