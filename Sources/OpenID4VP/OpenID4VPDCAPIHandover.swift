import CBOR
import Crypto
import JOSE

/// OpenID4VP 1.0 Appendix B.2.6.2 — the handover of an mdoc presentation over the W3C Digital Credentials API
/// (Appendix A): `["OpenID4VPDCAPIHandover", SHA-256(OpenID4VPDCAPIHandoverInfoBytes)]`, where the info is the CBOR
/// array `[origin, nonce, jwkThumbprint or null]`. The origin is the one the browser (platform) reports for the page
/// that called the API, never one taken from the response; the thumbprint (RFC 7638, SHA-256, as bytes) is that of
/// the verifier's key the response is encrypted to, null only when the response is not encrypted (`dc_api`).
public struct OpenID4VPDCAPIHandover: Sendable, Hashable {
    public static let identifier = "OpenID4VPDCAPIHandover"

    public var origin: String
    public var nonce: String
    public var jwkThumbprint: [UInt8]?

    public init(origin: String, nonce: String, jwkThumbprint: [UInt8]?) {
        self.origin = origin
        self.nonce = nonce
        self.jwkThumbprint = jwkThumbprint
    }

    /// The handover for a response encrypted to `encryptionKey` (its RFC 7638 SHA-256 thumbprint), or not
    /// encrypted (nil).
    public init(origin: String, nonce: String, encryptionKey: JWK?) throws {
        self.init(origin: origin, nonce: nonce,
                  jwkThumbprint: try encryptionKey.map { Array(SHA256.hash(data: try $0.thumbprintInput())) })
    }

    /// `OpenID4VPDCAPIHandoverInfo` encoded.
    public var infoBytes: [UInt8] {
        CBOR.array([.text(origin), .text(nonce), jwkThumbprint.map(CBOR.bytes) ?? .null]).encoded()
    }

    /// `OpenID4VPDCAPIHandover`.
    public var cbor: CBOR {
        .array([.text(Self.identifier), .bytes(Array(SHA256.hash(data: infoBytes)))])
    }
}
