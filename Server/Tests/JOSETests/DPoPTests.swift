import Crypto
import Foundation
import JOSE
import Testing

/// RFC 9449 §4 — one test per check of §4.3, each making exactly that check fail.
@Suite struct DPoPTests {
    let privateKey = P256.Signing.PrivateKey()
    var key: JWSSigningKey { JWSSigningKey(privateKey) }
    let now = Fixtures.now
    let verifier = DPoPVerifier(maximumAge: 60, maximumFutureSkew: 60)
    let uri = "https://server.example.com/token"
    let accessToken = "Kz~8mXK1EalYznwH-LC-1fBAo.4Ljp~zsPE_NeO.gxU"

    func proof(method: String = "POST", uri: String? = nil, issuedAt: Date? = nil, accessToken: String? = nil,
               nonce: String? = nil) throws -> String {
        try DPoPProof.create(method: method, uri: uri ?? self.uri, key: key, issuedAt: issuedAt ?? now,
                             accessToken: accessToken, nonce: nonce)
    }

    /// A proof with exactly the given header and claims (for shapes `DPoPProof.create` never writes).
    func customProof(header: [String: JSONValue]? = nil, claims: [String: JSONValue]? = nil) throws -> String {
        var headerFields: [String: JSONValue] = ["typ": .string("dpop+jwt")]
        headerFields["jwk"] = .object(["kty": .string("EC"), "crv": .string("P-256"),
                                       "x": .string(key.publicJWK.x!), "y": .string(key.publicJWK.y!)])
        let claimFields: [String: JSONValue] = claims ?? ["jti": .string("id-1"), "htm": .string("POST"), "htu": .string(uri),
                                                          "iat": .integer(Int64(now.timeIntervalSince1970))]
        return try JWS.sign(payload: Fixtures.encodeJSON(claimFields), header: JOSEHeader(fields: header ?? headerFields),
                            key: key).compactSerialization
    }

    func request(method: String = "POST", uri: String? = nil, accessToken: String? = nil, nonce: String? = nil,
                 thumbprint: String? = nil) -> DPoPRequest {
        DPoPRequest(method: method, uri: uri ?? self.uri, accessToken: accessToken, expectedNonce: nonce,
                    expectedThumbprint: thumbprint)
    }

    @Test func createdProofHasTheRequiredHeaderAndClaims() throws {
        let token = try proof(uri: "https://server.example.com/token?x=1#frag", accessToken: accessToken, nonce: "n-1")
        let jws = try JWS(compactSerialization: token)
        #expect(jws.header.typ == "dpop+jwt")
        #expect(jws.header.alg == "ES256")
        let jwk = try #require(try jws.header.jwk())
        #expect(jwk.d == nil)
        #expect(jwk == key.publicJWK.publicKey)
        let claims = try JSONDecoder().decode([String: JSONValue].self, from: Data(jws.payload))
        #expect(claims["htm"] == .string("POST"))
        #expect(claims["htu"] == .string("https://server.example.com/token"))
        #expect(claims["iat"] == .integer(1_800_000_000))
        #expect(claims["nonce"] == .string("n-1"))
        #expect(claims["ath"] == .string(DPoPProof.accessTokenHash(accessToken)))
        // RFC 9449 §11.1: at least 96 bits of randomness; ours are 128.
        let jti = try #require(claims["jti"]?.stringValue)
        #expect((Base64URL.decode(jti)?.count ?? 0) >= 12)
        #expect(try proof() != (try proof()))
    }

    /// RFC 9449 §4.2 — `ath` is base64url(SHA-256(ASCII(access token))).
    @Test func accessTokenHashIsSHA256OfTheToken() {
        let expected = Base64URL.encode(SHA256.hash(data: Array(accessToken.utf8)))
        #expect(DPoPProof.accessTokenHash(accessToken) == expected)
        #expect(DPoPProof.accessTokenHash(accessToken).count == 43)
    }

    @Test func validProofReturnsTheVerifiedFacts() throws {
        let token = try proof(accessToken: accessToken, nonce: "n-1")
        let facts = try verifier.verify(token, for: request(accessToken: accessToken, nonce: "n-1",
                                                            thumbprint: try key.publicJWK.thumbprint()), at: now.addingTimeInterval(5))
        #expect(facts.jwk == key.publicJWK.publicKey)
        #expect(facts.thumbprint == (try key.publicJWK.thumbprint()))
        #expect(facts.issuedAt == now)
        #expect(!facts.jti.isEmpty)
        #expect(facts.method == "POST")
        #expect(facts.nonce == "n-1")
        #expect(facts.algorithm == .es256)
    }

    @Test func asyncSignerCreatesVerifiableProofs() async throws {
        let token = try await DPoPProof.create(method: "GET", uri: uri, signer: key, issuedAt: now)
        _ = try verifier.verify(token, for: request(method: "GET"), at: now)
    }

    @Test func es384ProofsVerifyWhenAllowed() throws {
        let key384 = JWSSigningKey(P384.Signing.PrivateKey())
        let token = try DPoPProof.create(method: "POST", uri: uri, key: key384, issuedAt: now)
        #expect(try verifier.verify(token, for: request(), at: now).algorithm == .es384)
        Fixtures.expectError(.algorithmNotAllowed("ES384")) {
            _ = try DPoPVerifier(allowedAlgorithms: [.es256]).verify(token, for: request(), at: now)
        }
    }

    @Test func typMustBeDPoPJWT() throws {
        var header: [String: JSONValue] = ["typ": .string("JWT")]
        header["jwk"] = try JSONDecoder().decode(JSONValue.self, from: key.publicJWK.jsonData())
        let token = try customProof(header: header)
        Fixtures.expectError(.dpopInvalidType(nil)) { _ = try verifier.verify(token, for: request(), at: now) }
        let untyped = try customProof(header: ["jwk": header["jwk"]!])
        Fixtures.expectError(.dpopInvalidType(nil)) { _ = try verifier.verify(untyped, for: request(), at: now) }
    }

    @Test func algNoneIsRejected() throws {
        let header = Base64URL.encode(Array(#"{"alg":"none","typ":"dpop+jwt"}"#.utf8))
        let payload = try JWS(compactSerialization: try proof()).encodedPayload
        Fixtures.expectError(.algorithmNone) { _ = try verifier.verify("\(header).\(payload).", for: request(), at: now) }
    }

    @Test func jwkHeaderIsRequired() throws {
        let token = try customProof(header: ["typ": .string("dpop+jwt")])
        Fixtures.expectError(.dpopMissingKey) { _ = try verifier.verify(token, for: request(), at: now) }
    }

    /// RFC 9449 §4.3 step 7 — the `jwk` header must not contain a private key.
    @Test func privateJWKIsRejected() throws {
        let privateJWK = JWK(privateKey: privateKey)
        let header: [String: JSONValue] = ["typ": .string("dpop+jwt"),
                                           "jwk": .object(["kty": .string("EC"), "crv": .string("P-256"), "x": .string(privateJWK.x!),
                                                           "y": .string(privateJWK.y!), "d": .string(privateJWK.d!)])]
        let token = try customProof(header: header)
        Fixtures.expectError(.dpopPrivateKey) { _ = try verifier.verify(token, for: request(), at: now) }
    }

    @Test func signatureMustVerifyWithTheEmbeddedKey() throws {
        let token = Fixtures.flippingBit(try proof(), segment: 2)
        Fixtures.expectError(.invalidSignature) { _ = try verifier.verify(token, for: request(), at: now) }
        // Same claims, signed by another key than the one in `jwk`.
        let other = JWSSigningKey(P256.Signing.PrivateKey())
        let original = try JWS(compactSerialization: try proof())
        let swapped = try JWS.sign(payload: original.payload, header: original.header, key: other)
        Fixtures.expectError(.invalidSignature) { _ = try verifier.verify(swapped.compactSerialization, for: request(), at: now) }
    }

    @Test func requiredClaimsMustBePresent() throws {
        let full: [String: JSONValue] = ["jti": .string("id-1"), "htm": .string("POST"), "htu": .string(uri),
                                         "iat": .integer(Int64(now.timeIntervalSince1970))]
        for name in ["jti", "htm", "htu", "iat"] {
            var claims = full
            claims[name] = nil
            let token = try customProof(claims: claims)
            Fixtures.expectError(.dpopMissingClaim(name)) { _ = try verifier.verify(token, for: request(), at: now) }
        }
        var wrongType = full
        wrongType["iat"] = .string("now")
        Fixtures.expectError(.dpopMissingClaim("iat")) { _ = try verifier.verify(try customProof(claims: wrongType), for: request(), at: now) }
    }

    @Test func jtiMustBeNonEmptyAndBounded() throws {
        for jti in ["", String(repeating: "j", count: 257)] {
            let token = try customProof(claims: ["jti": .string(jti), "htm": .string("POST"), "htu": .string(uri),
                                                 "iat": .integer(Int64(now.timeIntervalSince1970))])
            Fixtures.expectError(.dpopInvalidJTI) { _ = try verifier.verify(token, for: request(), at: now) }
        }
    }

    @Test func htmMustMatchTheMethod() throws {
        Fixtures.expectError(.dpopMethodMismatch) { _ = try verifier.verify(try proof(method: "POST"), for: request(method: "GET"), at: now) }
        Fixtures.expectError(.dpopMethodMismatch) { _ = try verifier.verify(try proof(method: "post"), for: request(method: "POST"), at: now) }
    }

    @Test func htuMustMatchTheURI() throws {
        Fixtures.expectError(.dpopURIMismatch) {
            _ = try verifier.verify(try proof(), for: request(uri: "https://server.example.com/other"), at: now)
        }
        Fixtures.expectError(.dpopURIMismatch) {
            _ = try verifier.verify(try proof(), for: request(uri: "http://server.example.com/token"), at: now)
        }
        Fixtures.expectError(.dpopURIMismatch) {
            _ = try verifier.verify(try proof(), for: request(uri: "https://server.example.com:8443/token"), at: now)
        }
    }

    /// RFC 9449 §4.3 step 9 — query and fragment ignored; scheme/host case and default port normalised.
    @Test func htuIsComparedAfterNormalisation() throws {
        let token = try customProof(claims: ["jti": .string("id-1"), "htm": .string("POST"),
                                             "htu": .string("HTTPS://Server.Example.COM:443/token"),
                                             "iat": .integer(Int64(now.timeIntervalSince1970))])
        _ = try verifier.verify(token, for: request(uri: "https://server.example.com/token?grant=x#f"), at: now)
        #expect(DPoPURI.normalise("http://a.example:80") == "http://a.example/")
        #expect(DPoPURI.normalise("https://a.example:8443/p%2fq?x") == "https://a.example:8443/p%2Fq")
        #expect(DPoPURI.normalise("https://[::1]:443/x") == "https://[::1]/x")
        #expect(DPoPURI.normalise("ftp://a.example/") == nil)
        #expect(DPoPURI.normalise("https://user@a.example/") == nil)
        #expect(DPoPURI.normalise("/relative") == nil)
    }

    @Test func iatMustBeWithinTheWindow() throws {
        Fixtures.expectError(.dpopIssuedAtOutOfWindow) {
            _ = try verifier.verify(try proof(issuedAt: now.addingTimeInterval(-61)), for: request(), at: now)
        }
        Fixtures.expectError(.dpopIssuedAtOutOfWindow) {
            _ = try verifier.verify(try proof(issuedAt: now.addingTimeInterval(61)), for: request(), at: now)
        }
        _ = try verifier.verify(try proof(issuedAt: now.addingTimeInterval(-59)), for: request(), at: now)
        _ = try verifier.verify(try proof(issuedAt: now.addingTimeInterval(59)), for: request(), at: now)
    }

    @Test func athIsRequiredWithAnAccessToken() throws {
        Fixtures.expectError(.dpopMissingAccessTokenHash) {
            _ = try verifier.verify(try proof(), for: request(accessToken: accessToken), at: now)
        }
    }

    @Test func athMustMatchTheAccessToken() throws {
        Fixtures.expectError(.dpopAccessTokenHashMismatch) {
            _ = try verifier.verify(try proof(accessToken: "another-token"), for: request(accessToken: accessToken), at: now)
        }
    }

    @Test func nonceIsRequiredWhenTheServerDemandsOne() throws {
        Fixtures.expectError(.dpopMissingNonce) { _ = try verifier.verify(try proof(), for: request(nonce: "n-1"), at: now) }
    }

    @Test func nonceMustMatch() throws {
        Fixtures.expectError(.dpopNonceMismatch) {
            _ = try verifier.verify(try proof(nonce: "n-0"), for: request(nonce: "n-1"), at: now)
        }
    }

    /// RFC 9449 §6 — the proof key must be the one the access token is bound to (`cnf.jkt`).
    @Test func proofKeyMustMatchTheBoundThumbprint() throws {
        Fixtures.expectError(.dpopKeyMismatch) {
            _ = try verifier.verify(try proof(), for: request(thumbprint: try Fixtures.bobJWK.thumbprint()), at: now)
        }
    }

    @Test func oversizedProofIsRejected() throws {
        let token = try proof()
        Fixtures.expectError(.inputTooLarge(limit: 100)) {
            _ = try DPoPVerifier(maximumProofLength: 100).verify(token, for: request(), at: now)
        }
    }

    /// `jti` replay is the caller's job: the verifier accepts the same proof twice and hands back the jti to record.
    @Test func jtiReplayIsLeftToTheCaller() throws {
        let token = try proof()
        let first = try verifier.verify(token, for: request(), at: now)
        let second = try verifier.verify(token, for: request(), at: now)
        #expect(first.jti == second.jti)
    }
}
