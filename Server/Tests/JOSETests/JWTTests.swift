import Crypto
import Foundation
import JOSE
import Testing

@Suite struct JWTTests {
    let key = JWSSigningKey(P256.Signing.PrivateKey())
    let now = Fixtures.now

    func token(_ claims: JWTClaims) throws -> String {
        try JWT.sign(claims: claims, key: key)
    }

    func verify(_ token: String, _ validator: JWTClaimsValidator) async throws -> JWT {
        try await JWT.verify(token, verifier: JWSVerifier(keySource: .key(key.verificationKey)), validator: validator, at: now)
    }

    var validClaims: JWTClaims {
        JWTClaims(iss: "https://issuer.example", sub: "device-1", aud: ["https://rp.example"],
                  exp: now.addingTimeInterval(300), nbf: now.addingTimeInterval(-10), iat: now.addingTimeInterval(-10),
                  jti: "id-1", additionalClaims: ["ttl": .integer(43200)])
    }

    @Test func signedClaimsVerifyAndRoundTrip() async throws {
        let jwt = try await verify(token(validClaims), JWTClaimsValidator(issuer: "https://issuer.example",
                                                                            audience: "https://rp.example", subject: "device-1"))
        #expect(jwt.claims == validClaims)
        #expect(jwt.header.typ == "JWT")
        #expect(jwt.claims.additionalClaims["ttl"] == .integer(43200))
    }

    /// RFC 7519 §4.1.3 — `aud` is a string or an array of strings; one audience is written as a string.
    @Test func audienceIsAStringOrAnArray() throws {
        let single = try JWTClaims(payload: Array(#"{"aud":"a"}"#.utf8))
        #expect(single.aud == ["a"])
        let many = try JWTClaims(payload: Array(#"{"aud":["a","b"]}"#.utf8))
        #expect(many.aud == ["a", "b"])
        #expect(String(decoding: try JWTClaims(aud: ["a"]).encoded(), as: UTF8.self) == #"{"aud":"a"}"#)
        #expect(String(decoding: try JWTClaims(aud: ["a", "b"]).encoded(), as: UTF8.self) == #"{"aud":["a","b"]}"#)
        Fixtures.expectError(.malformedClaim("aud")) { _ = try JWTClaims(payload: Array(#"{"aud":1}"#.utf8)) }
        Fixtures.expectError(.malformedClaim("aud")) { _ = try JWTClaims(payload: Array(#"{"aud":[]}"#.utf8)) }
    }

    @Test func numericDatesAreSecondsAndRegisteredClaimsAreTyped() throws {
        let claims = try JWTClaims(payload: Array(#"{"exp":1800000000,"iat":1799999999.5}"#.utf8))
        #expect(claims.exp == Date(timeIntervalSince1970: 1_800_000_000))
        #expect(claims.iat == Date(timeIntervalSince1970: 1_799_999_999.5))
        #expect(String(decoding: try JWTClaims(exp: claims.exp).encoded(), as: UTF8.self) == #"{"exp":1800000000}"#)
        Fixtures.expectError(.malformedClaim("exp")) { _ = try JWTClaims(payload: Array(#"{"exp":"soon"}"#.utf8)) }
        Fixtures.expectError(.malformedClaim("iss")) { _ = try JWTClaims(payload: Array(#"{"iss":1}"#.utf8)) }
        Fixtures.expectError(.malformedJSON("")) { _ = try JWTClaims(payload: Array("[]".utf8)) }
    }

    @Test func expiredTokenIsRejectedAfterTheLeeway() async throws {
        var claims = validClaims
        claims.exp = now.addingTimeInterval(-30)
        _ = try await verify(token(claims), JWTClaimsValidator(leeway: 60))
        await Fixtures.expectError(.tokenExpired) { _ = try await verify(token(claims), JWTClaimsValidator(leeway: 10)) }
        claims.exp = now
        await Fixtures.expectError(.tokenExpired) { _ = try await verify(token(claims), JWTClaimsValidator(leeway: 0)) }
    }

    @Test func tokenBeforeNotBeforeIsRejected() async throws {
        var claims = validClaims
        claims.nbf = now.addingTimeInterval(120)
        await Fixtures.expectError(.tokenNotYetValid) { _ = try await verify(token(claims), JWTClaimsValidator(leeway: 60)) }
    }

    @Test func issuedAtInTheFutureIsRejected() async throws {
        var claims = validClaims
        claims.iat = now.addingTimeInterval(120)
        await Fixtures.expectError(.issuedAtOutOfRange) { _ = try await verify(token(claims), JWTClaimsValidator(leeway: 60)) }
    }

    @Test func tokenOlderThanTheMaximumAgeIsRejected() async throws {
        var claims = validClaims
        claims.iat = now.addingTimeInterval(-600)
        await Fixtures.expectError(.issuedAtOutOfRange) {
            _ = try await verify(token(claims), JWTClaimsValidator(leeway: 0, maximumAge: 300))
        }
        claims.iat = nil
        await Fixtures.expectError(.missingClaim("iat")) {
            _ = try await verify(token(claims), JWTClaimsValidator(leeway: 0, maximumAge: 300))
        }
    }

    @Test func requiredClaimsMustBePresent() async throws {
        var claims = validClaims
        claims.exp = nil
        await Fixtures.expectError(.missingClaim("exp")) { _ = try await verify(token(claims), JWTClaimsValidator()) }
        await Fixtures.expectError(.missingClaim("status_list")) {
            _ = try await verify(token(validClaims), JWTClaimsValidator(requiredClaims: ["status_list"]))
        }
    }

    @Test func issuerMustMatch() async throws {
        await Fixtures.expectError(.issuerMismatch) {
            _ = try await verify(token(validClaims), JWTClaimsValidator(issuer: "https://other.example"))
        }
    }

    @Test func audienceMustIncludeTheVerifier() async throws {
        await Fixtures.expectError(.audienceMismatch) {
            _ = try await verify(token(validClaims), JWTClaimsValidator(audience: "https://other.example"))
        }
        var claims = validClaims
        claims.aud = nil
        await Fixtures.expectError(.missingClaim("aud")) {
            _ = try await verify(token(claims), JWTClaimsValidator(audience: "https://rp.example"))
        }
    }

    @Test func subjectMustMatch() async throws {
        await Fixtures.expectError(.subjectMismatch) {
            _ = try await verify(token(validClaims), JWTClaimsValidator(subject: "device-2"))
        }
    }

    /// RFC 7800 §3.1 / RFC 9449 §6.1 — `cnf` binds the holder key by `jkt` or `jwk`.
    @Test func confirmationMustBindTheHolderKey() async throws {
        let holder = Fixtures.bobJWK.publicKey
        var claims = validClaims
        claims.cnf = JWTConfirmation(jkt: try holder.thumbprint())
        _ = try await verify(token(claims), JWTClaimsValidator(confirmationKey: holder))
        claims.cnf = JWTConfirmation(jwk: holder)
        let jwt = try await verify(token(claims), JWTClaimsValidator(confirmationKey: holder))
        #expect(jwt.claims.cnf?.jwk == holder)
        await Fixtures.expectError(.confirmationMismatch) {
            _ = try await verify(token(claims), JWTClaimsValidator(confirmationKey: Fixtures.aliceJWK.publicKey))
        }
        claims.cnf = nil
        await Fixtures.expectError(.missingClaim("cnf")) {
            _ = try await verify(token(claims), JWTClaimsValidator(confirmationKey: holder))
        }
    }

    @Test func confirmationKeyMustBePublic() {
        let json = #"{"cnf":{"jwk":{"kty":"EC","crv":"P-256","x":"weNJy2HscCSM6AEDTDg04biOvhFhyyWvOHQfeF_PxMQ","y":"e8lnCO-AlStT-NJVX-crhB7QRYhiix03illJOVAOyck","d":"VEmDZpDXXK8p8N0Cndsxs924q6nS1RXFASRl6BfUqdw"}}}"#
        Fixtures.expectError(.privateKeyNotAllowed) { _ = try JWTClaims(payload: Array(json.utf8)) }
    }

    @Test func badSignatureFailsBeforeClaimsAreRead() async throws {
        let forged = Fixtures.flippingBit(try token(validClaims), segment: 2)
        await Fixtures.expectError(.invalidSignature) { _ = try await verify(forged, JWTClaimsValidator()) }
    }
}
