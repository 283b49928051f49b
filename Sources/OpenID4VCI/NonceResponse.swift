import Foundation

/// OpenID4VCI 1.0 §7.2 — the nonce endpoint's answer.
public struct NonceResponse: Codable, Sendable, Hashable {
    public var cNonce: String

    public init(cNonce: String) { self.cNonce = cNonce }

    enum CodingKeys: String, CodingKey {
        case cNonce = "c_nonce"
    }

    public static func decode(_ data: Data) throws(OpenID4VCIError) -> NonceResponse {
        try OpenID4VCIJSON.decode(NonceResponse.self, from: data, what: "the nonce response")
    }
}
