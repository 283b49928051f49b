import Crypto
import DigitalCredentials
import Testing
import TestSupport

/// RFC 9180 Appendix A.3.1 (Vectors/rfc9180-a3-1.json): DHKEM(P-256, HKDF-SHA256), HKDF-SHA256, AES-128-GCM in base
/// mode, the suite of ISO/IEC TS 18013-7 Annex C. swift-crypto's sender draws its own ephemeral key, so the vector
/// checks the recipient: skRm, enc and info open the first encryption's ct with its aad to its pt.
@Suite struct HPKEVectorTests {
    let vector: [String: Any]

    init() throws { vector = try localVector("rfc9180-a3-1.json") }

    func bytes(_ name: String, in object: [String: Any]? = nil) throws -> [UInt8] {
        hexBytes(try #require((object ?? vector)[name] as? String))
    }

    var first: [String: Any] {
        get throws { try #require((vector["encryptions"] as? [[String: Any]])?.first) }
    }

    var recipientKey: P256.KeyAgreement.PrivateKey {
        get throws { try P256.KeyAgreement.PrivateKey(rawRepresentation: try bytes("skRm")) }
    }

    @Test func theSuiteIsTheVectors() throws {
        #expect(vector["kem_id"] as? Int == 0x0010 && vector["kdf_id"] as? Int == 0x0001 && vector["aead_id"] as? Int == 0x0001)
        #expect(Array(try recipientKey.publicKey.x963Representation) == (try bytes("pkRm")))
    }

    @Test func theFirstEncryptionOpensToItsPlaintext() throws {
        let opened = try HPKEBase.open(enc: try bytes("enc"), cipherText: try bytes("ct", in: try first), recipientKey: try recipientKey,
                                       info: try bytes("info"), aad: try bytes("aad", in: try first))
        #expect(opened == (try bytes("pt", in: try first)))
        #expect(String(decoding: opened, as: UTF8.self) == "Beauty is truth, truth beauty")
    }

    @Test func anotherInfoOrAadDoesNotOpen() throws {
        let first = try first
        #expect(throws: DigitalCredentialsError.decryptionFailed) {
            try HPKEBase.open(enc: try bytes("enc"), cipherText: try bytes("ct", in: first), recipientKey: try recipientKey,
                              info: try bytes("info") + [0], aad: try bytes("aad", in: first))
        }
        #expect(throws: DigitalCredentialsError.decryptionFailed) {
            try HPKEBase.open(enc: try bytes("enc"), cipherText: try bytes("ct", in: first), recipientKey: try recipientKey,
                              info: try bytes("info"), aad: [])
        }
    }
}
