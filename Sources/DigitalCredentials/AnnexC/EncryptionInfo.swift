import CBOR
import COSE
import Crypto
import JOSE

/// ISO/IEC TS 18013-7 (second edition) Annex C — what the verifier sends for the wallet to encrypt its response to:
/// `EncryptionInfo = ["dcapi", {"nonce": bstr, "recipientPublicKey": COSE_Key}]`, on the wire as base64url (no
/// padding) of its CBOR. The nonce is at least 16 random bytes; the key an EC2 P-256 public key (the recipient of
/// HPKE DHKEM(P-256, HKDF-SHA256)).
///
/// The base64url text is kept exactly as received (``base64URL``): the Annex C SessionTranscript hashes that string
/// as sent, never a re-encoding.
public struct EncryptionInfo: Sendable, Hashable {
    /// Annex C: the type string of the structure.
    public static let type = "dcapi"
    /// Annex C: "nonce … at least 16 bytes".
    public static let minimumNonceLength = 16

    public let nonce: [UInt8]
    /// The COSE_Key as received (or written), public, EC2 P-256.
    public let recipientKey: COSEKey
    /// The CBOR encoding.
    public let encoded: [UInt8]
    /// base64url (no padding) of ``encoded``, exactly as received or sent.
    public let base64URL: String

    /// The recipient's key for HPKE.
    public let recipientPublicKey: P256.KeyAgreement.PublicKey

    /// Two are the same when they are the same string on the wire (what the SessionTranscript hashes).
    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.base64URL == rhs.base64URL }
    public func hash(into hasher: inout Hasher) { hasher.combine(base64URL) }

    /// The structure for `recipientPublicKey` with `nonce` (16 random bytes unless given), encoded deterministically
    /// (RFC 8949 §4.2.1).
    public init(recipientPublicKey: P256.KeyAgreement.PublicKey,
                nonce: [UInt8] = Array(SymmetricKey(size: .bits128).withUnsafeBytes { Array($0) })) throws(DigitalCredentialsError) {
        guard nonce.count >= Self.minimumNonceLength else { throw .nonceTooShort(nonce.count) }
        let point = Array(recipientPublicKey.x963Representation)
        let key: COSEKey
        do { key = try COSEKey(curve: .p256, x: Array(point[1..<33]), y: Array(point[33...])) } catch {
            throw .recipientKeyUnsupported("\(error)")
        }
        self.nonce = nonce
        recipientKey = key
        self.recipientPublicKey = recipientPublicKey
        encoded = CBOR.array([.text(Self.type), .map([
            .init("nonce", .bytes(nonce)),
            .init("recipientPublicKey", key.cbor),
        ])]).encoded(deterministic: true)
        base64URL = Base64URL.encode(encoded)
    }

    /// Reads the wire form: base64url without padding of the CBOR.
    public init(base64URL text: String) throws(DigitalCredentialsError) {
        guard let bytes = Base64URL.decode(text) else { throw .encryptionInfoMalformed("not base64url without padding") }
        try self.init(decoding: bytes, base64URL: text)
    }

    /// Reads the CBOR; ``base64URL`` is then its encoding.
    public init(decoding bytes: [UInt8]) throws(DigitalCredentialsError) {
        try self.init(decoding: bytes, base64URL: Base64URL.encode(bytes))
    }

    private init(decoding bytes: [UInt8], base64URL: String) throws(DigitalCredentialsError) {
        let fields = try AnnexCCBOR.typedMap(bytes, "EncryptionInfo", malformed: DigitalCredentialsError.encryptionInfoMalformed)
        guard let nonceItem = fields["nonce"] else { throw .encryptionInfoMalformed("no nonce") }
        guard nonceItem.majorType == 2, !nonceItem.isIndefiniteLength, let nonce = try? Array(nonceItem.bytes()) else {
            throw .encryptionInfoMalformed("nonce is \(nonceItem.kindDescription), not a byte string")
        }
        guard nonce.count >= Self.minimumNonceLength else { throw .nonceTooShort(nonce.count) }
        guard let keyItem = fields["recipientPublicKey"] else { throw .encryptionInfoMalformed("no recipientPublicKey") }
        let key: COSEKey
        do { key = try COSEKey(item: keyItem) } catch { throw .recipientKeyUnsupported("\(error)") }
        guard key.curve == .p256 else { throw .recipientKeyUnsupported("the key is on \(key.curve.name), not P-256") }
        guard key.d == nil else { throw .recipientKeyUnsupported("the key carries its private part (d)") }
        do {
            recipientPublicKey = try P256.KeyAgreement.PublicKey(x963Representation: [0x04] + key.x + key.y)
        } catch {
            throw .recipientKeyUnsupported("the point is not on P-256")
        }
        self.nonce = nonce
        recipientKey = key
        encoded = bytes
        self.base64URL = base64URL
    }
}
