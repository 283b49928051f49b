import CBOR
import Crypto

/// OpenID4VP 1.0 Appendix B.2.6.1 — the handover of an mdoc presentation over OpenID4VP (redirects, no Digital
/// Credentials API): `["OpenID4VPHandover", SHA-256(OpenID4VPHandoverInfoBytes)]`, where the info is the CBOR array
/// `[client_id, nonce, jwkThumbprint or null, response_uri]` and the thumbprint (RFC 7638) is that of the key the
/// response is encrypted to.
public struct OpenID4VPHandover: Sendable, Hashable {
    public static let identifier = "OpenID4VPHandover"

    public var clientId: String
    public var nonce: String
    public var jwkThumbprint: [UInt8]?
    public var responseUri: String

    public init(clientId: String, nonce: String, jwkThumbprint: [UInt8]?, responseUri: String) {
        self.clientId = clientId
        self.nonce = nonce
        self.jwkThumbprint = jwkThumbprint
        self.responseUri = responseUri
    }

    /// `OpenID4VPHandoverInfo` encoded.
    public var infoBytes: [UInt8] {
        CBOR.array([.text(clientId), .text(nonce), jwkThumbprint.map(CBOR.bytes) ?? .null, .text(responseUri)]).encoded()
    }

    /// `OpenID4VPHandover`.
    public var cbor: CBOR {
        .array([.text(Self.identifier), .bytes(Array(SHA256.hash(data: infoBytes)))])
    }
}
