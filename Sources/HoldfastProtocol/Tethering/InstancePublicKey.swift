import Crypto
import Foundation
import JOSE

/// The `publicKey` of a registration or key rotation request (docs/server-api.md "Registration wire format"): the **standard base64
/// with padding** (RFC 4648 §4) of the 65-byte uncompressed SEC1 point `0x04 ‖ X ‖ Y` (SEC 1 §2.3.3) of the
/// instance's P-256 key. The 88-character string is exactly what goes into the `BindingNonce`.
public struct InstancePublicKey: Sendable, Hashable {
    /// The wire string (88 characters, ends in `=`).
    public let encoded: String
    /// The key it denotes.
    public let key: P256.Signing.PublicKey

    /// The wire form of `key`.
    public init(_ key: P256.Signing.PublicKey) {
        self.key = key
        self.encoded = Data(key.x963Representation).base64EncodedString()
    }

    /// Parses the wire form strictly: standard base64 with padding, exactly 65 bytes, `0x04` prefix, a point on
    /// the curve, and the canonical encoding (so that one key has exactly one wire string).
    public init(encoded: String) throws(ProtocolError) {
        guard encoded.utf8.count == 88, let data = Data(base64Encoded: encoded), data.count == 65, data.first == 0x04 else {
            throw .invalidPublicKey("publicKey must be the standard base64 of a 65-byte uncompressed P-256 point")
        }
        guard data.base64EncodedString() == encoded else {
            throw .invalidPublicKey("publicKey is not canonically encoded")
        }
        do {
            self.key = try P256.Signing.PublicKey(x963Representation: data)
        } catch {
            throw .invalidPublicKey("publicKey is not a point on P-256")
        }
        self.encoded = encoded
    }

    public static func == (lhs: InstancePublicKey, rhs: InstancePublicKey) -> Bool {
        lhs.encoded == rhs.encoded
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(encoded)
    }

    /// The key as a JWK (RFC 7517), e.g. to compare with a DPoP proof's `jwk`.
    public var jwk: JWK { JWK(publicKey: key) }

    /// The RFC 7638 SHA-256 thumbprint (base64url): the license token's `cnf.jkt`.
    public func thumbprint() throws -> String { try jwk.thumbprint() }

    /// The 65 SEC1 bytes.
    public var sec1Bytes: [UInt8] { Array(key.x963Representation) }
}
