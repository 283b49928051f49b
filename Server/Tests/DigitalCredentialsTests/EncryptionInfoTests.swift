import CBOR
import COSE
import Crypto
import DigitalCredentials
import JOSE
import Testing

/// ISO/IEC TS 18013-7 Annex C `EncryptionInfo = ["dcapi", {nonce, recipientPublicKey}]`: written, read back as sent,
/// and each malformation refused alone with its code.
@Suite struct EncryptionInfoTests {
    let key = P256.KeyAgreement.PrivateKey()
    let nonce: [UInt8] = Array(0..<16)

    func body(nonce: CBOR? = nil, key: CBOR? = nil) -> CBOR {
        .map([.init("nonce", nonce ?? .bytes(self.nonce)),
              .init("recipientPublicKey", key ?? publicCOSEKey.cbor)])
    }

    var publicCOSEKey: COSEKey {
        let point = Array(key.publicKey.x963Representation)
        return try! COSEKey(curve: .p256, x: Array(point[1..<33]), y: Array(point[33...]))
    }

    func read(_ item: CBOR) throws(DigitalCredentialsError) -> EncryptionInfo {
        try EncryptionInfo(base64URL: Base64URL.encode(item.encoded()))
    }

    @Test func writtenThenReadAsSent() throws {
        let info = try EncryptionInfo(recipientPublicKey: key.publicKey, nonce: nonce)
        #expect(info.encoded == CBOR.array(["dcapi", body()]).encoded(deterministic: true))
        let read = try EncryptionInfo(base64URL: info.base64URL)
        #expect(read.base64URL == info.base64URL && read.nonce == nonce)
        #expect(read.recipientPublicKey.x963Representation == key.publicKey.x963Representation)
        #expect(try EncryptionInfo(recipientPublicKey: key.publicKey).nonce.count == 16)
    }

    @Test func theHonestBaselineReads() throws {
        #expect(try read(.array(["dcapi", body()])).nonce == nonce)
    }

    @Test func aShortNonceIsRefused() {
        #expect(throws: DigitalCredentialsError.nonceTooShort(15)) { try read(.array(["dcapi", body(nonce: .bytes(Array(0..<15)))])) }
        #expect(throws: DigitalCredentialsError.nonceTooShort(8)) {
            try EncryptionInfo(recipientPublicKey: key.publicKey, nonce: Array(repeating: 1, count: 8))
        }
    }

    @Test func aKeyThatIsNotP256IsRefused() throws {
        let p384 = COSEKey(publicKey: P384.Signing.PrivateKey().publicKey).cbor
        do { _ = try read(.array(["dcapi", body(key: p384)])); Issue.record("a P-384 key was accepted") } catch {
            #expect(error.code == "RECIPIENT_KEY_UNSUPPORTED")
        }
        let okp = CBOR.map([.init(1, 1), .init(-1, 4), .init(-2, .bytes(Array(repeating: 9, count: 32)))])
        do { _ = try read(.array(["dcapi", body(key: okp)])); Issue.record("an OKP key was accepted") } catch {
            #expect(error.code == "RECIPIENT_KEY_UNSUPPORTED")
        }
        var offCurve = Array(key.publicKey.x963Representation)
        offCurve[64] ^= 1
        let notOnCurve = CBOR.map([.init(1, 2), .init(-1, 1), .init(-2, .bytes(Array(offCurve[1..<33]))), .init(-3, .bytes(Array(offCurve[33...])))])
        do { _ = try read(.array(["dcapi", body(key: notOnCurve)])); Issue.record("a point off the curve was accepted") } catch {
            #expect(error.code == "RECIPIENT_KEY_UNSUPPORTED")
        }
    }

    @Test func aPrivateKeyIsRefused() throws {
        let signing = try P256.Signing.PrivateKey(rawRepresentation: key.rawRepresentation)
        do { _ = try read(.array(["dcapi", body(key: COSEKey(privateKey: signing).cbor)])); Issue.record("d was accepted") } catch {
            #expect(error.code == "RECIPIENT_KEY_UNSUPPORTED")
        }
    }

    @Test func anotherTypeStringIsRefused() {
        #expect(throws: DigitalCredentialsError.unexpectedType("dcApi")) { try read(.array(["dcApi", body()])) }
        #expect(throws: DigitalCredentialsError.unexpectedType("")) { try read(.array(["", body()])) }
    }

    @Test func otherShapesAreMalformed() {
        let cases: [CBOR] = [.array([body()]), .array(["dcapi", body(), .null]), .array([.bytes(Array("dcapi".utf8)), body()]),
                             .array(["dcapi", .array([])]), .array(["dcapi", body(nonce: .text("0123456789abcdef"))]),
                             .array(["dcapi", .map([.init("nonce", .bytes(nonce))])]), .map([.init("dcapi", body())])]
        for item in cases {
            do { _ = try read(item); Issue.record("accepted \(item)") } catch { #expect(error.code == "ENCRYPTION_INFO_MALFORMED", "\(item)") }
        }
        for text in ["", "gmVkY2FwaQ==", "gmVk+2FwaQ", "not base64url!"] {
            do { _ = try EncryptionInfo(base64URL: text); Issue.record("accepted \(text)") } catch {
                #expect(error.code == "ENCRYPTION_INFO_MALFORMED", "\(text)")
            }
        }
    }
}
