import Crypto
import Foundation
import JOSE
import Testing

@Suite struct JWKTests {
    /// RFC 7638 §3.1 — the RSA example key and its SHA-256 thumbprint.
    @Test func rfc7638ExampleThumbprint() throws {
        let json = """
        {"kty":"RSA","n":"0vx7agoebGcQSuuPiLJXZptN9nndrQmbXEps2aiAFbWhM78LhWx4cbbfAAtVT86zwu1RK7aPFFxuhDR1L6tSoc_BJECPebWKRXjBZCiFV4n3oknjhMstn64tZ_2W-5JsGY4Hc5n9yBXArwl93lqt7_RN5w6Cf0h4QyQ5v-65YGjQR0_FDW2QvzqY368QQMicAtaSqzs8KJZgnYb9c7d0zgdAZHzu6qMQvRL5hajrn1n91CbOpbISD08qNLyrdkt-bFTWhAI4vMQFh6WeZu0fM4lFd2NcRwr3XPksINHaQ-G_xBniIqbw0Ls1jF44-csFCur-kEgU8awapJzKnqDKgw","e":"AQAB","alg":"RS256","kid":"2011-04-29"}
        """
        let key = try JWK(json: Array(json.utf8))
        #expect(try key.thumbprint() == "NzbLsXh8uDCcd-6MNwXF4W_7noWXFZAfHkxZsRGC9Xs")
        #expect(try key.thumbprintURI() == "urn:ietf:params:oauth:jwk-thumbprint:sha-256:NzbLsXh8uDCcd-6MNwXF4W_7noWXFZAfHkxZsRGC9Xs")
    }

    /// RFC 7638 §3.2/§3.3 — EC input is `crv`, `kty`, `x`, `y` in that order with no whitespace; the value was
    /// cross-checked with jwcrypto 1.6.1 and joserfc 1.8.0 (peer_jose.py thumbprint).
    @Test func ecThumbprintUsesTheRequiredMembersInOrder() throws {
        let input = String(decoding: try Fixtures.bobJWK.thumbprintInput(), as: UTF8.self)
        #expect(input == #"{"crv":"P-256","kty":"EC","x":"weNJy2HscCSM6AEDTDg04biOvhFhyyWvOHQfeF_PxMQ","y":"e8lnCO-AlStT-NJVX-crhB7QRYhiix03illJOVAOyck"}"#)
        #expect(try Fixtures.bobJWK.thumbprint() == "Vy57XrArUrW0NbpI12tEzDHABxMwrTh6HHXRenSpnCo")
    }

    @Test func thumbprintIgnoresOptionalAndPrivateMembers() throws {
        var key = Fixtures.bobJWK
        key.kid = "k1"
        key.use = "sig"
        key.alg = "ES256"
        #expect(try key.thumbprint() == (try Fixtures.bobJWK.publicKey.thumbprint()))
    }

    @Test func thumbprintNeedsTheRequiredMembers() {
        Fixtures.expectError(.invalidKey("")) { _ = try JWK(kty: "EC", crv: "P-256", x: "AA").thumbprint() }
        Fixtures.expectError(.unsupportedKeyType("")) { _ = try JWK(kty: "oct").thumbprint() }
    }

    @Test func privateKeyIsNeverEncodedUnlessAsked() throws {
        let plain = String(decoding: try JSONEncoder().encode(Fixtures.bobJWK), as: UTF8.self)
        #expect(!plain.contains("\"d\""))
        #expect(!String(decoding: try Fixtures.bobJWK.jsonData(), as: UTF8.self).contains("\"d\""))
        let withPrivate = String(decoding: try Fixtures.bobJWK.jsonData(includingPrivateKey: true), as: UTF8.self)
        #expect(withPrivate.contains("\"d\":\"VEmDZpDXXK8p8N0Cndsxs924q6nS1RXFASRl6BfUqdw\""))
        let encoder = JSONEncoder()
        encoder.userInfo[JWK.encodePrivateKey] = true
        #expect(String(decoding: try encoder.encode(Fixtures.bobJWK), as: UTF8.self).contains("\"d\""))
    }

    @Test func descriptionRedactsThePrivateKey() {
        #expect(!Fixtures.bobJWK.description.contains("VEmDZpDX"))
        #expect(Fixtures.bobJWK.description.contains("redacted"))
    }

    @Test func publicKeyDropsOnlyThePrivatePart() {
        var key = Fixtures.bobJWK
        key.kid = "k"
        #expect(key.publicKey.d == nil)
        #expect(key.publicKey.kid == "k")
        #expect(key.publicKey.x == key.x)
    }

    @Test func p256KeysRoundTrip() throws {
        let key = P256.Signing.PrivateKey()
        let jwk = JWK(publicKey: key.publicKey, kid: "a", use: "sig", alg: "ES256")
        #expect(jwk.kty == "EC" && jwk.crv == "P-256" && jwk.kid == "a" && jwk.use == "sig" && jwk.alg == "ES256")
        #expect(try jwk.p256PublicKey().x963Representation == key.publicKey.x963Representation)
        let decoded = try JSONDecoder().decode(JWK.self, from: try jwk.jsonData())
        #expect(decoded == jwk)
        let privateJWK = JWK(privateKey: key)
        #expect(try privateJWK.p256PrivateKey().rawRepresentation == key.rawRepresentation)
    }

    @Test func p384KeysRoundTrip() throws {
        let key = P384.Signing.PrivateKey()
        let jwk = JWK(publicKey: key.publicKey)
        #expect(jwk.crv == "P-384")
        #expect(Base64URL.decode(jwk.x ?? "")?.count == 48)
        #expect(try jwk.p384PublicKey().x963Representation == key.publicKey.x963Representation)
        #expect(try JWK(privateKey: key).p384PrivateKey().rawRepresentation == key.rawRepresentation)
    }

    @Test func keyAgreementKeysRoundTrip() throws {
        let key = P256.KeyAgreement.PrivateKey()
        #expect(try JWK(publicKey: key.publicKey).p256KeyAgreementPublicKey().x963Representation == key.publicKey.x963Representation)
        #expect(try JWK(privateKey: key).p256KeyAgreementPrivateKey().rawRepresentation == key.rawRepresentation)
    }

    /// RFC 7518 §6.2.1.2 — coordinates are full length.
    @Test func shortenedCoordinatesAreRejected() {
        var key = Fixtures.bobJWK
        key.x = Base64URL.encode(Array(Base64URL.decode(key.x!)!.dropFirst()))
        Fixtures.expectError(.invalidKey("")) { _ = try key.p256PublicKey() }
    }

    @Test func pointNotOnTheCurveIsRejected() {
        var key = Fixtures.bobJWK
        key.y = key.x
        Fixtures.expectError(.invalidKey("")) { _ = try key.p256PublicKey() }
    }

    @Test func wrongCurveOrTypeIsRejected() {
        Fixtures.expectError(.unsupportedCurve("")) { _ = try Fixtures.bobJWK.p384PublicKey() }
        Fixtures.expectError(.unsupportedKeyType("")) { _ = try JWK(kty: "RSA", n: "AQAB", e: "AQAB").p256PublicKey() }
    }

    @Test func privateKeyMustMatchThePublicKey() {
        var key = Fixtures.bobJWK
        key.d = Fixtures.aliceJWK.d
        Fixtures.expectError(.invalidKey("")) { _ = try key.p256PrivateKey() }
    }

    @Test func malformedCoordinatesAreRejected() {
        var key = Fixtures.bobJWK
        key.x = "not base64url!"
        Fixtures.expectError(.malformedBase64URL(part: "")) { _ = try key.p256PublicKey() }
        Fixtures.expectError(.malformedJSON("")) { _ = try JWK(json: Array("{\"crv\":\"P-256\"}".utf8)) }
    }

    @Test func rsaPublicKeyFromModulusAndExponent() throws {
        let key = JWK(rsaModulus: [0x00, 0xC0, 0x01], exponent: [0x01, 0x00, 0x01])
        #expect(key.n == "wAE")
        #expect(key.e == "AQAB")
    }

    @Test func jwkSetSelectsByKidAndPublishesPublicKeys() throws {
        var a = Fixtures.bobJWK
        a.kid = "a"
        var b = Fixtures.aliceJWK
        b.kid = "b"
        let set = JWKSet(keys: [a, b])
        #expect(set.key(withID: "b")?.x == b.x)
        #expect(set.key(withID: "c") == nil)
        let published = String(decoding: try JSONEncoder().encode(set.publicKeys), as: UTF8.self)
        #expect(published.contains("\"keys\""))
        #expect(!published.contains("\"d\""))
        let decoded = try JSONDecoder().decode(JWKSet.self, from: Data(published.utf8))
        #expect(decoded.keys.count == 2)
    }
}
