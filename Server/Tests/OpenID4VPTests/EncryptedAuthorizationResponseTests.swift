import Crypto
import JOSE
import MDoc
import OpenID4VP
import Testing

/// An encrypted authorization response (OpenID4VP 1.0 §8.3) opened as the verifier opens it: the payload's members and
/// the ISO/IEC TS 18013-7:2024 B.4.3.3.2 handover inputs of the JWE header (`apu`, `apv`), and each way it does not
/// open named on its own.
@Suite struct EncryptedAuthorizationResponseTests {
    let key = P256.KeyAgreement.PrivateKey()

    func encrypted(_ plaintext: String, to recipient: P256.KeyAgreement.PublicKey? = nil, apu: [UInt8]? = nil, apv: [UInt8]? = nil,
                   kid: String? = "k1") throws -> EncryptedAuthorizationResponse {
        try EncryptedAuthorizationResponse(compactSerialization: JWE.encrypt(
            plaintext: Array(plaintext.utf8), to: recipient ?? key.publicKey, encryption: .a256gcm, partyUInfo: apu, partyVInfo: apv, kid: kid))
    }

    @Test func theHandoverInputsComeFromTheHeader() throws {
        let decrypted = try encrypted(#"{"vp_token":"AA","state":"s"}"#, apu: Array("mgn".utf8), apv: Array("n1".utf8)).decrypt(with: key)
        #expect(decrypted.members["vp_token"] == .string("AA"))
        #expect(decrypted.response.state == "s")
        #expect(decrypted.handover == ISO18013_7Handover.ResponseInputs(mdocGeneratedNonce: Array("mgn".utf8), apv: Array("n1".utf8)))
        #expect(decrypted.handover.echoes(nonce: "n1"))
        #expect(!decrypted.handover.echoes(nonce: "n2"))
        #expect(decrypted.handover.sessionTranscript(clientId: "v.example", responseUri: "https://v.example/r", nonce: "n1").encoded
            == SessionTranscript.iso18013_7(clientId: "v.example", responseUri: "https://v.example/r", nonce: "n1", mdocGeneratedNonce: "mgn").encoded)
    }

    /// No `apu` and no `apv`: no nonce echoed, and the transcript over an empty mdocGeneratedNonce (so that the device
    /// signature is what refuses the answer).
    @Test func absentPartyInfoIsNil() throws {
        let handover = try encrypted(#"{"vp_token":"AA"}"#).decrypt(with: key).handover
        #expect(handover.mdocGeneratedNonce == nil && handover.apv == nil)
        #expect(!handover.echoes(nonce: "n1"))
        #expect(handover.sessionTranscript(clientId: "c", responseUri: "https://v.example/r", nonce: "n1").encoded
            == SessionTranscript.iso18013_7(clientId: "c", responseUri: "https://v.example/r", nonce: "n1", mdocGeneratedNonce: "").encoded)
    }

    @Test func theKidNamedIsTheOnlyOneMatched() throws {
        #expect(try encrypted("{}", kid: "k1").names(kid: "k1"))
        #expect(try !encrypted("{}", kid: "k1").names(kid: "k2"))
        // A JWE that names no key may be for any.
        #expect(try encrypted("{}", kid: nil).names(kid: "k2"))
        #expect(try encrypted("{}").contentEncryption == "A256GCM")
    }

    @Test func eachWayItDoesNotOpenIsNamed() throws {
        #expect(throws: EncryptedAuthorizationResponse.Failure.notCompactJWE) { try EncryptedAuthorizationResponse(compactSerialization: "a.b.c") }
        let other = P256.KeyAgreement.PrivateKey()
        #expect(throws: EncryptedAuthorizationResponse.Failure.undecryptable) { try encrypted("{}", to: other.publicKey).decrypt(with: key) }
        #expect(throws: EncryptedAuthorizationResponse.Failure.notJSON) { try encrypted("not json").decrypt(with: key) }
        #expect(throws: EncryptedAuthorizationResponse.Failure.notAnObject) { try encrypted(#"["vp_token"]"#).decrypt(with: key) }
        #expect(throws: Never.self) { try encrypted("{}").decrypt(with: key) }
    }
}
