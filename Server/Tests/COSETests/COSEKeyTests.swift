import CBOR
import COSE
import Crypto
import Testing
import TestSupport

@Suite("COSE_Key")
struct COSEKeyTests {
    @Test func publicAndPrivateKeysRoundTrip() throws {
        let p256 = P256.Signing.PrivateKey()
        let key = COSEKey(privateKey: p256)
        let decoded = try COSEKey(decoding: key.encoded())
        #expect(decoded == key)
        guard case .p256(let signing) = try decoded.signingKey() else { throw TestSupportError("not P-256") }
        #expect(signing.rawRepresentation == p256.rawRepresentation)
        let publicOnly = try COSEKey(decoding: COSEKey(publicKey: p256.publicKey).encoded())
        #expect(publicOnly.d == nil)
        #expect(try publicOnly.verificationKey().uncompressedPoint == Array(p256.publicKey.x963Representation))
        #expect(publicOnly == key.publicKey)
        let p384 = P384.Signing.PrivateKey()
        #expect(try COSEKey(decoding: COSEKey(publicKey: p384.publicKey).encoded()).curve == .p384)
    }

    @Test func encodingUsesTheRFC9053Labels() throws {
        let key = COSEKey(publicKey: P256.Signing.PrivateKey().publicKey)
        let item = try CBOR.decode(key.encoded())
        #expect(try item.value(forKey: 1).int() == 2)
        #expect(try item.value(forKey: -1).int() == 1)
        #expect(try item.value(forKey: -2).bytes().count == 32)
        #expect(try item.value(forKey: -3).bytes().count == 32)
    }

    // RFC 9052 Appendix C.7.1 public key "11" (meriadoc.brandybuck@buckland.example).
    @Test func specExampleKeyIsAccepted() throws {
        let bytes = hexBytes("""
        a5 01 02 02 42 3131 20 01
        21 5820 bac5b11cad8f99f9c72b05cf4b9e26d244dc189f745228255a219a86d6a09eff
        22 5820 20138bf82dc1b6d562be0fa54ab7804a3a64b6d72ccfed6b6fb6ed28bbfc117e
        """)
        let key = try COSEKey(decoding: bytes)
        #expect(key.keyID == Array("11".utf8))
        #expect(key.curve == .p256)
    }

    @Test func mismatchedLengthsCurvesAndPointsAreRejected() throws {
        let good = COSEKey(publicKey: P256.Signing.PrivateKey().publicKey)
        #expect(throws: COSEError.self) { try COSEKey(curve: .p384, x: good.x, y: good.y) }
        #expect(throws: COSEError.self) { try COSEKey(curve: .p256, x: Array(good.x.dropFirst()), y: good.y) }
        var offCurve = good.y
        offCurve[31] ^= 1
        #expect(throws: COSEError.invalidKey("the point is not on P-256")) { try COSEKey(curve: .p256, x: good.x, y: offCurve) }
        let other = P256.Signing.PrivateKey()
        #expect(throws: COSEError.invalidKey("d does not match x and y")) {
            try COSEKey(curve: .p256, x: good.x, y: good.y, d: Array(other.rawRepresentation))
        }
        #expect(throws: COSEError.keyAlgorithmMismatch(algorithm: "ES384", key: "P-256")) {
            try COSEKey(curve: .p256, x: good.x, y: good.y, algorithm: .es384)
        }
    }

    @Test func nonEC2AndCompressedKeysAreRejected() throws {
        let good = COSEKey(publicKey: P256.Signing.PrivateKey().publicKey)
        let okp: CBOR = [1: 1, -1: 6, -2: .bytes(good.x)]
        #expect(throws: COSEError.self) { try COSEKey(decoding: okp.encoded()) }
        let compressed: CBOR = [1: 2, -1: 1, -2: .bytes(good.x), -3: true]
        #expect(throws: COSEError.invalidKey("y must be a byte string (compressed points are not supported)")) {
            try COSEKey(decoding: compressed.encoded())
        }
        let unknownCurve: CBOR = [1: 2, -1: 9, -2: .bytes(good.x), -3: .bytes(good.y)]
        #expect(throws: COSEError.invalidKey("unsupported curve 9")) { try COSEKey(decoding: unknownCurve.encoded()) }
    }
}
