import Crypto
import Foundation
import JOSE
import TestSupport
import Testing

@Suite struct JWSTests {
    let key = P256.Signing.PrivateKey()
    var signingKey: JWSSigningKey { JWSSigningKey(key, kid: "k1") }
    var verificationKey: JWSVerificationKey { .p256(key.publicKey) }

    @Test func es256SignsRawSignaturesThatVerify() throws {
        var header = JOSEHeader()
        header.typ = "example+jwt"
        header.kid = "k1"
        let jws = try JWS.sign(payload: Array("hello".utf8), header: header, key: signingKey)
        #expect(jws.signature.count == 64)
        #expect(jws.header.alg == "ES256")
        #expect(jws.header.typ == "example+jwt")
        #expect(jws.payload == Array("hello".utf8))
        let parsed = try JWS(compactSerialization: jws.compactSerialization)
        try parsed.verify(with: verificationKey)
    }

    @Test func es384SignsNinetySixByteSignatures() throws {
        let key384 = P384.Signing.PrivateKey()
        let jws = try JWS.sign(payload: [1, 2, 3], key: JWSSigningKey(key384))
        #expect(jws.header.alg == "ES384")
        #expect(jws.signature.count == 96)
        try jws.verify(with: .p384(key384.publicKey))
    }

    @Test func asyncSignerProducesTheSameShape() async throws {
        let jws = try await JWS.sign(payload: [0], signer: signingKey)
        try jws.verify(with: verificationKey)
    }

    /// RFC 7515 §5.2 — the signature covers the received header bytes; whitespace and member order are not
    /// normalised away.
    @Test func verificationUsesTheReceivedBytes() throws {
        let headerJSON = "{ \"typ\" : \"JWT\",\n \"alg\":\"ES256\" }"
        let token = try Fixtures.rawJWS(headerJSON: headerJSON, payload: Array("{}".utf8), key: key)
        let jws = try JWS(compactSerialization: token)
        try jws.verify(with: verificationKey)
        #expect(jws.signingInput == Array(token.split(separator: ".")[0 ... 1].joined(separator: ".").utf8))
    }

    @Test func algNoneIsRejected() {
        let token = Base64URL.encode(Array(#"{"alg":"none"}"#.utf8)) + "." + Base64URL.encode([1]) + "."
        Fixtures.expectError(.algorithmNone) { _ = try JWS(compactSerialization: token) }
        let upper = Base64URL.encode(Array(#"{"alg":"NONE"}"#.utf8)) + "." + Base64URL.encode([1]) + "."
        Fixtures.expectError(.algorithmNone) { _ = try JWS(compactSerialization: upper) }
    }

    @Test func unknownAlgorithmsAreRejected() throws {
        for alg in ["HS256", "RS256", "EdDSA", "ES512", "es256"] {
            let token = try Fixtures.rawJWS(headerJSON: "{\"alg\":\"\(alg)\"}", payload: [1], key: key)
            Fixtures.expectError(.unsupportedAlgorithm(alg)) { _ = try JWS(compactSerialization: token) }
        }
        let missing = try Fixtures.rawJWS(headerJSON: "{}", payload: [1], key: key)
        Fixtures.expectError(.malformedHeader("")) { _ = try JWS(compactSerialization: missing) }
    }

    @Test func algorithmsOutsideTheAllowedSetAreRejected() throws {
        let jws = try JWS.sign(payload: [1], key: JWSSigningKey(P384.Signing.PrivateKey()))
        Fixtures.expectError(.algorithmNotAllowed("ES384")) { try jws.verify(with: verificationKey, allowedAlgorithms: [.es256]) }
    }

    /// RFC 7515 §4.1.11 — a `crit` name the verifier does not understand fails verification.
    @Test func unknownCriticalHeaderIsRejected() throws {
        var header = JOSEHeader()
        header["crit"] = .array([.string("exp-ext")])
        header["exp-ext"] = .integer(1)
        let jws = try JWS.sign(payload: [1], header: header, key: signingKey)
        Fixtures.expectError(.unsupportedCriticalHeader([])) { try jws.verify(with: verificationKey) }
        try jws.verify(with: verificationKey, understoodCriticalHeaders: ["exp-ext"])
    }

    @Test func malformedCriticalHeaderIsRejected() throws {
        for crit: JSONValue in [.array([]), .string("x"), .array([.integer(1)]), .array([.string("alg")]), .array([.string("absent")])] {
            var header = JOSEHeader()
            header["crit"] = crit
            let jws = try JWS.sign(payload: [1], header: header, key: signingKey)
            Fixtures.expectError(.unsupportedCriticalHeader([])) {
                try jws.verify(with: verificationKey, understoodCriticalHeaders: ["alg", "absent"])
            }
        }
    }

    @Test func malformedBase64URLIsRejected() throws {
        let token = try JWS.sign(payload: [1, 2, 3], key: signingKey).compactSerialization
        let parts = token.split(separator: ".").map(String.init)
        for bad in [parts[0] + "=", parts[0].replacingOccurrences(of: "e", with: "+")] where bad != parts[0] {
            Fixtures.expectError(.malformedBase64URL(part: "")) {
                _ = try JWS(compactSerialization: Fixtures.replacingSegment(token, at: 0, with: bad))
            }
        }
        Fixtures.expectError(.malformedBase64URL(part: "")) {
            _ = try JWS(compactSerialization: Fixtures.replacingSegment(token, at: 1, with: "A"))
        }
        Fixtures.expectError(.malformedBase64URL(part: "")) {
            _ = try JWS(compactSerialization: Fixtures.replacingSegment(token, at: 2, with: parts[2] + "=="))
        }
    }

    @Test func headerMustBeAJSONObject() {
        let token = Base64URL.encode(Array("[1]".utf8)) + ".AA.AA"
        Fixtures.expectError(.malformedJSON("")) { _ = try JWS(compactSerialization: token) }
    }

    @Test func compactSerializationHasThreeParts() {
        for token in ["", "a", "a.b", "a.b.c.d", "a.b.c.d.e"] {
            Fixtures.expectError(.malformedCompactSerialization("")) { _ = try JWS(compactSerialization: token) }
        }
    }

    @Test func oversizedInputIsRejected() {
        let token = String(repeating: "A", count: 2000)
        Fixtures.expectError(.inputTooLarge(limit: 1000)) { _ = try JWS(compactSerialization: token, maximumLength: 1000) }
    }

    /// RFC 7518 §3.4 — the signature is exactly 64 bytes for ES256 (not DER, not shortened).
    @Test func wrongSignatureLengthIsRejected() throws {
        let jws = try JWS.sign(payload: [1], key: signingKey)
        for length in [0, 63, 65, 72] {
            let token = Fixtures.replacingSegment(jws.compactSerialization, at: 2,
                                                  with: Base64URL.encode(Array(repeating: 1, count: length)))
            Fixtures.expectError(.invalidSignatureLength(expected: 64, actual: length)) {
                try JWS(compactSerialization: token).verify(with: verificationKey)
            }
        }
        let der = try key.signature(for: jws.signingInput).derRepresentation
        let derToken = Fixtures.replacingSegment(jws.compactSerialization, at: 2, with: Base64URL.encode(der))
        Fixtures.expectError(.invalidSignatureLength(expected: 64, actual: 0)) {
            try JWS(compactSerialization: derToken).verify(with: verificationKey)
        }
    }

    @Test func tamperedPayloadOrSignatureFails() throws {
        let jws = try JWS.sign(payload: Array("payload".utf8), key: signingKey)
        for segment in [1, 2] {
            let token = Fixtures.flippingBit(jws.compactSerialization, segment: segment)
            Fixtures.expectError(.invalidSignature) { try JWS(compactSerialization: token).verify(with: verificationKey) }
        }
        Fixtures.expectError(.invalidSignature) { try jws.verify(with: .p256(P256.Signing.PrivateKey().publicKey)) }
    }

    @Test func keyMustFitTheAlgorithm() throws {
        let jws = try JWS.sign(payload: [1], key: signingKey)
        Fixtures.expectError(.keyAlgorithmMismatch("")) { try jws.verify(with: .p384(P384.Signing.PrivateKey().publicKey)) }
    }

    // MARK: JWSVerifier key sources

    @Test func verifierTakesTheKeyFromTheJWKHeader() async throws {
        var header = JOSEHeader()
        try header.setJWK(JWK(publicKey: key.publicKey))
        let jws = try JWS.sign(payload: [7], header: header, key: signingKey)
        let verified = try await JWSVerifier(keySource: .embeddedJWK).verify(jws.compactSerialization)
        #expect(verified.key == verificationKey)
        #expect(verified.payload == [7])
    }

    @Test func verifierRefusesAPrivateKeyInTheJWKHeader() async throws {
        var header = JOSEHeader()
        header["jwk"] = .object(["kty": .string("EC"), "crv": .string("P-256"), "x": .string(JWK(privateKey: key).x!),
                                 "y": .string(JWK(privateKey: key).y!), "d": .string(JWK(privateKey: key).d!)])
        let jws = try JWS.sign(payload: [7], header: header, key: signingKey)
        await Fixtures.expectError(.privateKeyNotAllowed) { _ = try await JWSVerifier(keySource: .embeddedJWK).verify(jws) }
    }

    @Test func verifierNeedsTheHeaderItTakesTheKeyFrom() async throws {
        let jws = try JWS.sign(payload: [7], key: signingKey)
        await Fixtures.expectError(.missingVerificationKey("")) { _ = try await JWSVerifier(keySource: .embeddedJWK).verify(jws) }
        let x5c = JWSVerifier(keySource: .x5c(X5CChainValidation { _, _ in }))
        await Fixtures.expectError(.missingVerificationKey("")) { _ = try await x5c.verify(jws) }
    }

    @Test func verifierSelectsFromAKeySetByKid() async throws {
        var header = JOSEHeader()
        header.kid = "k1"
        let jws = try JWS.sign(payload: [7], header: header, key: signingKey)
        var mine = JWK(publicKey: key.publicKey, kid: "k1")
        mine.use = "sig"
        let other = JWK(publicKey: P256.Signing.PrivateKey().publicKey, kid: "k2")
        _ = try await JWSVerifier(keySource: .keySet(JWKSet(keys: [other, mine]))).verify(jws)
        await Fixtures.expectError(.missingVerificationKey("")) {
            _ = try await JWSVerifier(keySource: .keySet(JWKSet(keys: [other]))).verify(jws)
        }
    }

    /// RFC 7515 §4.1.6 — the key is the leaf's, and only after the caller's validator accepted the chain.
    @Test func verifierTakesTheKeyFromTheX5CLeafAfterChainValidation() async throws {
        let leaf = Fixtures.certificate(for: key.publicKey)
        let intermediate = Fixtures.certificate(for: P256.Signing.PrivateKey().publicKey, serial: 2)
        var header = JOSEHeader()
        header.setX5C([leaf, intermediate])
        let jws = try JWS.sign(payload: [9], header: header, key: signingKey)
        let seen = SeenChains()
        let verifier = JWSVerifier(keySource: .x5c(X5CChainValidation { chain, _ in await seen.record(chain) }))
        let verified = try await verifier.verify(jws.compactSerialization)
        #expect(verified.key == verificationKey)
        #expect(verified.certificateChain == [leaf, intermediate])
        #expect(await seen.chains == [[leaf, intermediate]])
    }

    struct Untrusted: Error {}

    @Test func rejectedX5CChainFailsVerification() async throws {
        var header = JOSEHeader()
        header.setX5C([Fixtures.certificate(for: key.publicKey)])
        let jws = try JWS.sign(payload: [9], header: header, key: signingKey)
        let verifier = JWSVerifier(keySource: .x5c(X5CChainValidation { _, _ in throw Untrusted() }))
        await Fixtures.expectError(.certificateChainRejected("")) { _ = try await verifier.verify(jws) }
    }

    @Test func x5cLeafMustHoldTheSigningKey() async throws {
        var header = JOSEHeader()
        header.setX5C([Fixtures.certificate(for: P256.Signing.PrivateKey().publicKey)])
        let jws = try JWS.sign(payload: [9], header: header, key: signingKey)
        let verifier = JWSVerifier(keySource: .x5c(X5CChainValidation { _, _ in }))
        await Fixtures.expectError(.invalidSignature) { _ = try await verifier.verify(jws) }
    }

    @Test func malformedX5CIsRejected() async throws {
        for value: JSONValue in [.array([]), .string("MII"), .array([.string("not base64!")]), .array([.string("AAAA")])] {
            var header = JOSEHeader()
            header["x5c"] = value
            let jws = try JWS.sign(payload: [9], header: header, key: signingKey)
            let verifier = JWSVerifier(keySource: .x5c(X5CChainValidation { _, _ in }))
            await Fixtures.expectError(.malformedCertificateChain("")) { _ = try await verifier.verify(jws) }
        }
    }

    /// A real certificate (the EUDI PID issuer CA in the shared vectors): the leaf-key reader finds its P-256 key.
    @Test func readsTheKeyOfARealCertificate() throws {
        let pem = String(decoding: try TestEnvironment.vector("oid4vp/eudi_pid_issuer_ca_ut02.pem"), as: UTF8.self)
        let body = pem.split(separator: "\n").filter { !$0.hasPrefix("-----") }.joined()
        let der = try #require(Data(base64Encoded: body))
        let key = try JWSVerificationKey(certificate: Array(der))
        // openssl x509 -noout -text: pub 04:7a:c0:ca:8f…
        #expect(Base64URL.decode(key.jwk.x ?? "").map(hexString)?.hasPrefix("7ac0ca8fdac221cac68f4c1b49762f09") == true)
    }

    @Test func verifierChecksTheExpectedType() async throws {
        var header = JOSEHeader()
        header.typ = "application/statuslist+jwt"
        let jws = try JWS.sign(payload: [1], header: header, key: signingKey)
        _ = try await JWSVerifier(keySource: .key(verificationKey), expectedType: "statuslist+jwt").verify(jws)
        await Fixtures.expectError(.typeMismatch(expected: "", actual: nil)) {
            _ = try await JWSVerifier(keySource: .key(verificationKey), expectedType: "dpop+jwt").verify(jws)
        }
    }
}

actor SeenChains {
    var chains: [[[UInt8]]] = []
    func record(_ chain: [[UInt8]]) { chains.append(chain) }
}
