import CBOR
import COSE
import Crypto

/// The ephemeral keys of ISO/IEC 18013-5 §9.1.1.4 as `#6.24(bstr .cbor COSE_Key)`: EDeviceKeyBytes and
/// EReaderKeyBytes. Only EC2 P-256 is used here (the cipher suite 1 curve both sides of this module generate).
enum ProximityKeys {
    /// `#6.24(bstr .cbor COSE_Key)` for a P-256 public key: `{1: 2, -1: 1, -2: x, -3: y}` in the deterministic
    /// order (RFC 8949 §4.2.1), as COSE's `COSEKey.encoded()` writes it.
    static func taggedBytes(of key: P256.KeyAgreement.PublicKey) -> [UInt8] {
        let point = Array(key.x963Representation)
        let cose = CBOR.map([
            .init(.int(COSEKey.Label.keyType), .int(COSEKey.keyTypeEC2)),
            .init(.int(COSEKey.Label.curve), .int(COSEKey.Curve.p256.rawValue)),
            .init(.int(COSEKey.Label.x), .bytes(Array(point[1..<33]))),
            .init(.int(COSEKey.Label.y), .bytes(Array(point[33...]))),
        ])
        return CBOR.embeddedEncoding(of: cose.encoded(deterministic: true))
    }

    /// The P-256 key of a received `#6.24(bstr .cbor COSE_Key)` item.
    static func publicKey(tagged item: CBOR.Decoded) throws(ProximityError) -> P256.KeyAgreement.PublicKey {
        guard item.majorType == 6, (try? item.tag().tag) == CBOR.Tag.encodedCBOR else {
            throw .unsupportedKey("the key is \(item.kindDescription), not #6.24(bstr .cbor COSE_Key)")
        }
        let key: COSEKey
        do { key = try COSEKey(item: try item.embedded()) } catch { throw .unsupportedKey("\(error)") }
        guard key.curve == .p256, key.d == nil else {
            throw .unsupportedKey(key.d == nil ? "curve \(key.curve.name) is not P-256" : "the key carries a private part")
        }
        do { return try P256.KeyAgreement.PublicKey(x963Representation: [0x04] + key.x + key.y) } catch {
            throw .unsupportedKey("the point is not on P-256")
        }
    }
}

/// Reading helpers: every CBOR failure becomes the caller's ``ProximityError`` case.
struct ProximityCBOR {
    let fail: @Sendable (String) -> ProximityError

    func decode(_ bytes: [UInt8], _ what: String) throws(ProximityError) -> CBOR.Decoded {
        do { return try CBOR.decode(bytes) } catch { throw fail("\(what) is not CBOR: \(error)") }
    }

    func map(_ item: CBOR.Decoded, _ what: String) throws(ProximityError) -> [(key: CBOR.Decoded, value: CBOR.Decoded)] {
        do { return try item.map() } catch { throw fail("\(what) is \(item.kindDescription), not a map") }
    }

    func array(_ item: CBOR.Decoded, _ what: String) throws(ProximityError) -> [CBOR.Decoded] {
        do { return try item.array() } catch { throw fail("\(what) is \(item.kindDescription), not an array") }
    }

    func text(_ item: CBOR.Decoded, _ what: String) throws(ProximityError) -> String {
        do { return try item.text() } catch { throw fail("\(what) is \(item.kindDescription), not a text string") }
    }

    func bytes(_ item: CBOR.Decoded, _ what: String) throws(ProximityError) -> [UInt8] {
        do { return Array(try item.bytes()) } catch { throw fail("\(what) is \(item.kindDescription), not a byte string") }
    }

    func bool(_ item: CBOR.Decoded, _ what: String) throws(ProximityError) -> Bool {
        do { return try item.bool() } catch { throw fail("\(what) is \(item.kindDescription), not a boolean") }
    }

    func unsigned(_ item: CBOR.Decoded, _ what: String) throws(ProximityError) -> UInt64 {
        do { return try item.uint64() } catch { throw fail("\(what) is \(item.kindDescription), not an unsigned integer") }
    }

    func int(_ item: CBOR.Decoded, _ what: String) throws(ProximityError) -> Int64 {
        do { return try item.int64() } catch { throw fail("\(what) is \(item.kindDescription), not an integer") }
    }
}
