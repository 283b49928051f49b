import CBOR
import COSE
import Crypto
import DigitalCredentials
import JOSE
import MDoc
import Testing
import TestSupport

/// ISO/IEC TS 18013-7 Annex C: the wallet seals a DeviceResponse to the request's EncryptionInfo for the page's
/// origin, the verifier opens it; and every refusal, each from an input honest in every other way.
@Suite struct AnnexCEncryptionTests {
    static let origin = "https://shop.example"
    let recipientKey = P256.KeyAgreement.PrivateKey()
    let deviceResponse: [UInt8] = DeviceResponse(documents: []).encoded()

    func encryptionInfo() throws -> EncryptionInfo { try EncryptionInfo(recipientPublicKey: recipientKey.publicKey) }

    @Test func sealedForAnOriginOpensForItWithTheRequestsKey() throws {
        let info = try encryptionInfo()
        let sealed = try AnnexCEncryption.seal(deviceResponse: deviceResponse, to: info, origin: Self.origin)
        #expect(sealed.enc.count == 65 && sealed.enc.first == 0x04)
        // Through the wire forms: EncryptedResponse CBOR in the `response` member, EncryptionInfo as sent.
        let response = try DigitalCredentialResponse(json: try AnnexCResponse(encryptedResponse: sealed).response.jsonBytes())
        let received = try AnnexCResponse(response).encryptedResponse
        #expect(received == sealed)
        let transcript = SessionTranscript.dcapi(encryptionInfo: info.base64URL, origin: Self.origin)
        #expect(try AnnexCEncryption.open(received, recipientKey: recipientKey, sessionTranscript: transcript) == deviceResponse)
        let opened = try AnnexCEncryption.open(received, recipientKey: recipientKey, encryptionInfo: info.base64URL,
                                               origins: ["https://other.example", Self.origin])
        #expect(opened.origin == Self.origin && opened.deviceResponse == deviceResponse && opened.sessionTranscript == transcript)
    }

    @Test func anotherOriginsTranscriptDoesNotOpen() throws {
        let info = try encryptionInfo()
        let sealed = try AnnexCEncryption.seal(deviceResponse: deviceResponse, to: info, origin: Self.origin)
        #expect(throws: DigitalCredentialsError.decryptionFailed) {
            try AnnexCEncryption.open(sealed, recipientKey: recipientKey,
                                      sessionTranscript: .dcapi(encryptionInfo: info.base64URL, origin: "https://evil.example"))
        }
        #expect(throws: DigitalCredentialsError.decryptionFailed) {
            try AnnexCEncryption.open(sealed, recipientKey: recipientKey, encryptionInfo: info.base64URL,
                                      origins: ["https://evil.example", "https://shop.example:8443"])
        }
    }

    @Test func anotherEncryptionInfoStringDoesNotOpen() throws {
        let info = try encryptionInfo()
        let sealed = try AnnexCEncryption.seal(deviceResponse: deviceResponse, to: info, origin: Self.origin)
        let sameKeyOtherNonce = try EncryptionInfo(recipientPublicKey: recipientKey.publicKey, nonce: Array(repeating: 7, count: 16))
        #expect(throws: DigitalCredentialsError.decryptionFailed) {
            try AnnexCEncryption.open(sealed, recipientKey: recipientKey,
                                      sessionTranscript: .dcapi(encryptionInfo: sameKeyOtherNonce.base64URL, origin: Self.origin))
        }
    }

    @Test func aFlippedCiphertextByteDoesNotOpen() throws {
        let info = try encryptionInfo()
        let sealed = try AnnexCEncryption.seal(deviceResponse: deviceResponse, to: info, origin: Self.origin)
        for index in [0, sealed.cipherText.count / 2, sealed.cipherText.count - 1] {
            var cipherText = sealed.cipherText
            cipherText[index] ^= 0x01
            let changed = try EncryptedResponse(enc: sealed.enc, cipherText: cipherText)
            #expect(throws: DigitalCredentialsError.decryptionFailed) {
                try AnnexCEncryption.open(changed, recipientKey: recipientKey, sessionTranscript: .dcapi(encryptionInfo: info.base64URL, origin: Self.origin))
            }
        }
    }

    @Test func anotherRecipientKeyDoesNotOpen() throws {
        let info = try encryptionInfo()
        let sealed = try AnnexCEncryption.seal(deviceResponse: deviceResponse, to: info, origin: Self.origin)
        #expect(throws: DigitalCredentialsError.decryptionFailed) {
            try AnnexCEncryption.open(sealed, recipientKey: P256.KeyAgreement.PrivateKey(),
                                      sessionTranscript: .dcapi(encryptionInfo: info.base64URL, origin: Self.origin))
        }
    }

    /// RFC 9180 §7.1.1: `enc` is a 65-byte uncompressed point on P-256; anything else is refused as such, before
    /// any decryption.
    @Test func anEncThatIsNotAP256PointIsRefused() throws {
        let info = try encryptionInfo()
        let sealed = try AnnexCEncryption.seal(deviceResponse: deviceResponse, to: info, origin: Self.origin)
        var offCurve = sealed.enc
        offCurve[64] ^= 0x01
        let compressed = [0x02 | (sealed.enc[64] & 1)] + Array(sealed.enc[1..<33])
        for enc in [offCurve, compressed, Array(sealed.enc.dropLast()), [0x05] + Array(sealed.enc.dropFirst())] {
            let bytes = CBOR.array(["dcapi", .map([.init("enc", .bytes(enc)), .init("cipherText", .bytes(sealed.cipherText))])]).encoded()
            #expect(throws: DigitalCredentialsError.self) { try EncryptedResponse(decoding: bytes) }
            do { _ = try EncryptedResponse(decoding: bytes) } catch { #expect(error.code == "ENCAPSULATED_KEY_INVALID") }
            do {
                _ = try HPKEBase.open(enc: enc, cipherText: sealed.cipherText, recipientKey: recipientKey,
                                      info: SessionTranscript.dcapi(encryptionInfo: info.base64URL, origin: Self.origin).encoded, aad: [])
                Issue.record("an enc of \(enc.count) bytes opened")
            } catch { #expect(error.code == "ENCAPSULATED_KEY_INVALID") }
        }
    }

    @Test func theEncryptedResponseIsReadAndWrittenBackUnchanged() throws {
        let sealed = try AnnexCEncryption.seal(deviceResponse: deviceResponse, to: try encryptionInfo(), origin: Self.origin)
        let bytes = sealed.encoded()
        #expect(Array(bytes.prefix(7)) == [0x82, 0x65] + Array("dcapi".utf8))
        #expect(try EncryptedResponse(decoding: bytes).encoded() == bytes)
    }

    @Test func anEncryptedResponseOfAnotherShapeIsRefused() throws {
        let sealed = try AnnexCEncryption.seal(deviceResponse: deviceResponse, to: try encryptionInfo(), origin: Self.origin)
        let body = CBOR.map([.init("enc", .bytes(sealed.enc)), .init("cipherText", .bytes(sealed.cipherText))])
        #expect(throws: DigitalCredentialsError.unexpectedType("mdoc")) { try EncryptedResponse(decoding: CBOR.array(["mdoc", body]).encoded()) }
        for malformed in [CBOR.array([body]), .array(["dcapi", body, .null]), .map([.init("dcapi", body)]),
                          .array(["dcapi", .map([.init("enc", .bytes(sealed.enc))])]),
                          .array(["dcapi", .map([.init("enc", .bytes(sealed.enc)), .init("cipherText", .text("x"))])])] {
            do { _ = try EncryptedResponse(decoding: malformed.encoded()); Issue.record("accepted \(malformed)") } catch {
                #expect(error.code == "ENCRYPTED_RESPONSE_MALFORMED")
            }
        }
        #expect(throws: DigitalCredentialsError.self) { try EncryptedResponse(decoding: [0xFF]) }
    }
}
