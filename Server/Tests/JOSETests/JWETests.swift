import Crypto
import Foundation
import JOSE
import TestSupport
import Testing

@Suite struct JWETests {
    let recipient = P256.KeyAgreement.PrivateKey()

    /// RFC 7518 Appendix C — Z from Alice's ephemeral key and Bob's key, and the A128GCM key derived from it with
    /// apu "Alice", apv "Bob" (vector: shared/vectors/oid4vp/rfc7518-appendix-c-ecdh-es.json).
    @Test func concatKDFMatchesRFC7518AppendixC() throws {
        let vector = try TestEnvironment.jsonVector("oid4vp/rfc7518-appendix-c-ecdh-es.json")
        let expected = try #require(vector["expected"] as? [String: Any])
        let alice = try Fixtures.aliceJWK.p256KeyAgreementPrivateKey()
        let bob = try Fixtures.bobJWK.p256KeyAgreementPublicKey()
        let z = try alice.sharedSecretFromKeyAgreement(with: bob).withUnsafeBytes { Array($0) }
        #expect(hexString(z) == expected["zHex"] as? String)
        let key = ConcatKDF.deriveKey(sharedSecret: z, algorithmID: "A128GCM", partyUInfo: Array("Alice".utf8),
                                      partyVInfo: Array("Bob".utf8), keyDataLength: 128)
        #expect(Base64URL.encode(key) == "VqqN6vgjbSBcIijNcacQGg")
        #expect(Base64URL.encode(key) == expected["derivedKeyBase64Url"] as? String)
    }

    @Test func concatKDFProducesLongerKeysByCounting() {
        let key = ConcatKDF.deriveKey(sharedSecret: [1, 2, 3], algorithmID: "x", partyUInfo: [], partyVInfo: [], keyDataLength: 384)
        #expect(key.count == 48)
    }

    /// The RFC 7518 Appendix C header, encrypted with Alice's key as the ephemeral key, decrypts with Bob's.
    @Test func appendixCKeysEncryptAndDecrypt() throws {
        let token = try JWE.encrypt(plaintext: Array("Live long and prosper.".utf8), to: Fixtures.bobJWK.p256KeyAgreementPublicKey(),
                                    encryption: .a128gcm, partyUInfo: Array("Alice".utf8), partyVInfo: Array("Bob".utf8),
                                    ephemeralKey: try Fixtures.aliceJWK.p256KeyAgreementPrivateKey())
        let jwe = try JWE(compactSerialization: token)
        #expect(jwe.header["apu"] == .string("QWxpY2U"))
        #expect(jwe.header["apv"] == .string("Qm9i"))
        #expect(jwe.header["epk"]?.objectValue?["x"] == .string(Fixtures.aliceJWK.x!))
        #expect(try jwe.decrypt(with: Fixtures.bobJWK) == Array("Live long and prosper.".utf8))
    }

    /// A real OpenID4VP `direct_post.jwt` response by procivis one-core (P-256, A256GCM, apu/apv, kid).
    @Test func procivisP256ResponseDecrypts() throws {
        let vector = try TestEnvironment.jsonVector("oid4vp/procivis-direct-post-jwt-ecdh-es.json")
        let cases = try #require(vector["cases"] as? [[String: Any]])
        let p256 = try #require(cases.first { $0["name"] as? String == "P-256" })
        let keyJSON = try JSONSerialization.data(withJSONObject: try #require(p256["recipientPrivateJwk"]))
        let key = try JWK(json: keyJSON)
        let jwe = try JWE(compactSerialization: try #require(p256["jwe"] as? String))
        #expect(try jwe.contentEncryption() == .a256gcm)
        let plaintext = try jwe.decrypt(with: key)
        #expect(Base64URL.encode(plaintext) == p256["expectedPlaintextBase64Url"] as? String)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(plaintext)) as? [String: Any])
        let expected = try #require(p256["expectedPlaintextJson"] as? [String: Any])
        #expect(object["state"] as? String == expected["state"] as? String)
        #expect(object["vp_token"] as? String == expected["vp_token"] as? String)
    }

    /// The X25519 procivis response: OKP ECDH-ES is reported unsupported, clearly.
    @Test func x25519ResponseIsReportedUnsupported() throws {
        let vector = try TestEnvironment.jsonVector("oid4vp/procivis-direct-post-jwt-ecdh-es.json")
        let cases = try #require(vector["cases"] as? [[String: Any]])
        let x25519 = try #require(cases.first { $0["name"] as? String == "X25519" })
        let jwe = try JWE(compactSerialization: try #require(x25519["jwe"] as? String))
        do {
            _ = try jwe.decrypt(with: recipient)
            Issue.record("X25519 decrypted")
        } catch let error as JOSEError {
            #expect(error.code == "JOSE_UNSUPPORTED_CRV")
            #expect(error.description.contains("X25519"))
        }
    }

    @Test(arguments: JWEContentEncryption.allCases)
    func roundTrip(_ encryption: JWEContentEncryption) throws {
        let plaintext = Array("{\"vp_token\":\"…\"}".utf8)
        let token = try JWE.encrypt(plaintext: plaintext, to: recipient.publicKey, encryption: encryption,
                                    partyUInfo: [0x18, 0x47, 0x07], partyVInfo: Array("nonce".utf8), kid: "verifier-key",
                                    additionalHeader: ["typ": .string("oauth-authz-resp+jwt")])
        let jwe = try JWE(compactSerialization: token)
        #expect(jwe.header.alg == "ECDH-ES")
        #expect(jwe.header.enc == encryption.rawValue)
        #expect(jwe.header.kid == "verifier-key")
        #expect(jwe.header.typ == "oauth-authz-resp+jwt")
        #expect(jwe.encryptedKey.isEmpty)
        #expect(jwe.initializationVector.count == 12)
        #expect(jwe.authenticationTag.count == 16)
        #expect(try jwe.decrypt(with: recipient) == plaintext)
    }

    @Test func encryptsToAJWKWithItsKid() throws {
        let jwk = JWK(publicKey: recipient.publicKey, kid: "enc-1", use: "enc", alg: "ECDH-ES")
        let jwe = try JWE(compactSerialization: try JWE.encrypt(plaintext: [1, 2], to: jwk, encryption: .a128gcm))
        #expect(jwe.header.kid == "enc-1")
        #expect(jwe.header["apu"] == nil)
        #expect(try jwe.decrypt(with: JWK(privateKey: recipient)) == [1, 2])
    }

    func sample() throws -> String {
        try JWE.encrypt(plaintext: Array("secret response".utf8), to: recipient.publicKey, encryption: .a256gcm,
                        partyVInfo: Array("nonce".utf8), kid: "k")
    }

    @Test func tamperedCiphertextFails() throws {
        let token = Fixtures.flippingBit(try sample(), segment: 3)
        Fixtures.expectError(.decryptionFailed) { _ = try JWE(compactSerialization: token).decrypt(with: recipient) }
    }

    @Test func tamperedTagFails() throws {
        let token = Fixtures.flippingBit(try sample(), segment: 4, byte: 15)
        Fixtures.expectError(.decryptionFailed) { _ = try JWE(compactSerialization: token).decrypt(with: recipient) }
    }

    @Test func tamperedIVFails() throws {
        let token = Fixtures.flippingBit(try sample(), segment: 2)
        Fixtures.expectError(.decryptionFailed) { _ = try JWE(compactSerialization: token).decrypt(with: recipient) }
    }

    /// RFC 7516 §5.2 step 14 — the protected header is the AAD: a changed member fails authentication.
    @Test func tamperedHeaderFails() throws {
        let token = try sample()
        let jwe = try JWE(compactSerialization: token)
        var fields = jwe.header.fields
        fields["kid"] = .string("other")
        let header = Base64URL.encode(try Fixtures.encodeJSON(fields))
        Fixtures.expectError(.decryptionFailed) {
            _ = try JWE(compactSerialization: Fixtures.replacingSegment(token, at: 0, with: header)).decrypt(with: recipient)
        }
    }

    @Test func wrongKeyFails() throws {
        let jwe = try JWE(compactSerialization: try sample())
        Fixtures.expectError(.decryptionFailed) { _ = try jwe.decrypt(with: P256.KeyAgreement.PrivateKey()) }
    }

    func withHeader(_ change: (inout [String: JSONValue]) -> Void) throws -> JWE {
        let token = try sample()
        var fields = try JWE(compactSerialization: token).header.fields
        change(&fields)
        return try JWE(compactSerialization: Fixtures.replacingSegment(token, at: 0, with: Base64URL.encode(try Fixtures.encodeJSON(fields))))
    }

    @Test func otherKeyManagementAlgorithmsAreRejected() throws {
        let rsa = try withHeader { $0["alg"] = .string("RSA-OAEP-256") }
        Fixtures.expectError(.unsupportedAlgorithm("")) { _ = try rsa.decrypt(with: recipient) }
        let wrapped = try withHeader { $0["alg"] = .string("ECDH-ES+A128KW") }
        Fixtures.expectError(.unsupportedAlgorithm("")) { _ = try wrapped.decrypt(with: recipient) }
        let none = try withHeader { $0["alg"] = .string("none") }
        Fixtures.expectError(.algorithmNone) { _ = try none.decrypt(with: recipient) }
    }

    @Test func otherContentEncryptionsAreRejected() throws {
        let cbc = try withHeader { $0["enc"] = .string("A128CBC-HS256") }
        Fixtures.expectError(.unsupportedAlgorithm("")) { _ = try cbc.decrypt(with: recipient) }
    }

    @Test func compressionIsRejected() throws {
        let zip = try withHeader { $0["zip"] = .string("DEF") }
        Fixtures.expectError(.compressionNotSupported) { _ = try zip.decrypt(with: recipient) }
    }

    @Test func unknownCriticalHeaderIsRejected() throws {
        let crit = try withHeader {
            $0["crit"] = .array([.string("ext")])
            $0["ext"] = .bool(true)
        }
        Fixtures.expectError(.unsupportedCriticalHeader([])) { _ = try crit.decrypt(with: recipient) }
    }

    @Test func missingOrInvalidEphemeralKeyIsRejected() throws {
        let missing = try withHeader { $0["epk"] = nil }
        Fixtures.expectError(.missingEphemeralKey) { _ = try missing.decrypt(with: recipient) }
        let offCurve = try withHeader {
            var epk = $0["epk"]?.objectValue ?? [:]
            epk["y"] = epk["x"]
            $0["epk"] = .object(epk)
        }
        Fixtures.expectError(.invalidKey("")) { _ = try offCurve.decrypt(with: recipient) }
        let p384 = try withHeader { $0["epk"] = .object(["kty": .string("EC"), "crv": .string("P-384"), "x": .string("AA"), "y": .string("AA")]) }
        Fixtures.expectError(.unsupportedCurve("")) { _ = try p384.decrypt(with: recipient) }
    }

    /// RFC 7518 §4.6 — direct key agreement: the encrypted key segment is empty.
    @Test func nonEmptyEncryptedKeyIsRejected() throws {
        let token = Fixtures.replacingSegment(try sample(), at: 1, with: Base64URL.encode([1, 2, 3]))
        Fixtures.expectError(.encryptedKeyNotEmpty) { _ = try JWE(compactSerialization: token).decrypt(with: recipient) }
    }

    @Test func wrongIVOrTagLengthIsRejected() throws {
        let shortIV = Fixtures.replacingSegment(try sample(), at: 2, with: Base64URL.encode([UInt8](repeating: 1, count: 8)))
        Fixtures.expectError(.invalidInitializationVector) { _ = try JWE(compactSerialization: shortIV).decrypt(with: recipient) }
        let shortTag = Fixtures.replacingSegment(try sample(), at: 4, with: Base64URL.encode([UInt8](repeating: 1, count: 12)))
        Fixtures.expectError(.invalidAuthenticationTag) { _ = try JWE(compactSerialization: shortTag).decrypt(with: recipient) }
    }

    @Test func compactSerializationHasFiveParts() {
        for token in ["a.b.c", "a.b.c.d", "a.b.c.d.e.f"] {
            Fixtures.expectError(.malformedCompactSerialization("")) { _ = try JWE(compactSerialization: token) }
        }
        Fixtures.expectError(.malformedBase64URL(part: "")) { _ = try JWE(compactSerialization: "e30..AA=.AA.AA") }
    }
}
