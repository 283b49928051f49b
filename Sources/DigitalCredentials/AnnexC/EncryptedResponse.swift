import CBOR
import Crypto

/// ISO/IEC TS 18013-7 (second edition) Annex C — the wallet's encrypted answer:
/// `EncryptedResponse = ["dcapi", {"enc": bstr, "cipherText": bstr}]`, `enc` the HPKE encapsulated key (the
/// ephemeral P-256 public key, 65-byte uncompressed point, RFC 9180 §7.1.1) and `cipherText` the AES-128-GCM
/// ciphertext with its tag. On the wire as base64url (no padding) of its CBOR, the `response` member of the data.
public struct EncryptedResponse: Sendable, Hashable {
    /// RFC 9180 §7.1 Table 2: Nenc of DHKEM(P-256, HKDF-SHA256).
    public static let encLength = 65

    public let enc: [UInt8]
    public let cipherText: [UInt8]

    /// The structure from its parts; `enc` must be an uncompressed P-256 point on the curve.
    public init(enc: [UInt8], cipherText: [UInt8]) throws(DigitalCredentialsError) {
        try Self.checkEncapsulatedKey(enc)
        self.enc = enc
        self.cipherText = cipherText
    }

    public init(decoding bytes: [UInt8]) throws(DigitalCredentialsError) {
        let fields = try AnnexCCBOR.typedMap(bytes, "EncryptedResponse", malformed: DigitalCredentialsError.encryptedResponseMalformed)
        func byteString(_ name: String) throws(DigitalCredentialsError) -> [UInt8] {
            guard let item = fields[name] else { throw .encryptedResponseMalformed("no \(name)") }
            guard item.majorType == 2, !item.isIndefiniteLength, let bytes = try? Array(item.bytes()) else {
                throw .encryptedResponseMalformed("\(name) is \(item.kindDescription), not a byte string")
            }
            return bytes
        }
        try self.init(enc: try byteString("enc"), cipherText: try byteString("cipherText"))
    }

    /// RFC 8949 §4.2.1 deterministic encoding (`enc` before `cipherText`).
    public func encoded() -> [UInt8] {
        CBOR.array([.text(EncryptionInfo.type), .map([
            .init("enc", .bytes(enc)),
            .init("cipherText", .bytes(cipherText)),
        ])]).encoded(deterministic: true)
    }

    /// RFC 9180 §7.1.1 DeserializePublicKey for P-256: the uncompressed SEC1 point, which must lie on the curve.
    static func checkEncapsulatedKey(_ enc: [UInt8]) throws(DigitalCredentialsError) {
        guard enc.count == encLength, enc.first == 0x04 else {
            throw .encapsulatedKeyInvalid("\(enc.count) bytes, expected a 65-byte uncompressed point (0x04 ‖ x ‖ y)")
        }
        guard (try? P256.KeyAgreement.PublicKey(x963Representation: enc)) != nil else {
            throw .encapsulatedKeyInvalid("the point is not on P-256")
        }
    }
}
