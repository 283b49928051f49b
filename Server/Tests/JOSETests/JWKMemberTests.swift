import Crypto
import Foundation
import JOSE
import Testing

/// `kty`, `crv` and `use` (RFC 7517 §4.1, §4.2; RFC 7518 §6.2.1.1; RFC 8037 §2) are open value sets: a key this
/// version does not support decodes, is written back unchanged, and is refused only where it is used, with the error
/// it always had there.
@Suite struct JWKMemberTests {
    @Test func knownMembersAreTheirCases() throws {
        let key = try JWK(json: Array(#"{"kty":"EC","crv":"P-384","use":"enc","x":"AA","y":"AA"}"#.utf8))
        #expect(key.kty.known == .ec && key.crv?.known == .p384 && key.use?.known == .encryption)
        #expect(JWK.KeyType.all.map(\.rawValue) == ["EC", "RSA", "OKP"])
        #expect(JWK.Curve.all.map(\.rawValue) == ["P-256", "P-384", "Ed25519", "X25519"])
        #expect(JWK.Use.all.map(\.rawValue) == ["sig", "enc"])
        #expect(JWK.Curve.Known.allCases.map(\.coordinateLength) == [32, 48, nil, nil])
        #expect(JWSAlgorithm.allCases.map(\.curve) == [.p256, .p384])
    }

    /// The JSON of a key is what it was: the same members, in the same (sorted) order.
    @Test func aKeyIsWrittenAsBefore() throws {
        var key = Fixtures.bobJWK
        key.kid = "k1"
        key.use = .signature
        key.alg = "ES256"
        #expect(String(decoding: try key.jsonData(), as: UTF8.self)
            == #"{"alg":"ES256","crv":"P-256","kid":"k1","kty":"EC","use":"sig","x":"weNJy2HscCSM6AEDTDg04biOvhFhyyWvOHQfeF_PxMQ","y":"e8lnCO-AlStT-NJVX-crhB7QRYhiix03illJOVAOyck"}"#)
        let signer = P256.Signing.PrivateKey()
        let made = JWK(publicKey: signer.publicKey, kid: "t", use: .signature, alg: "ES256")
        #expect(made.kty.rawValue == "EC" && made.crv?.rawValue == "P-256" && made.use?.rawValue == "sig")
    }

    @Test func unknownMembersAreKeptAndWrittenBack() throws {
        let json = #"{"crv":"secp256k1","kty":"EC","use":"wrap","x":"AA","y":"AA"}"#
        let key = try JWK(json: Array(json.utf8))
        #expect(key.crv?.rawValue == "secp256k1" && key.crv?.known == nil)
        #expect(key.use?.rawValue == "wrap" && key.use?.known == nil)
        #expect(String(decoding: try key.jsonData(), as: UTF8.self) == json)
        let octet = try JWK(json: Array(#"{"kty":"oct","kid":"s"}"#.utf8))
        #expect(octet.kty.rawValue == "oct" && octet.kty.known == nil)
        #expect(String(decoding: try octet.jsonData(), as: UTF8.self) == #"{"kid":"s","kty":"oct"}"#)
    }

    /// A curve this version does not support is refused as `unsupportedCurve` by every use that needs one.
    @Test func anUnsupportedCurveIsRefusedWhereItIsUsed() throws {
        var key = Fixtures.bobJWK
        key.crv = "P-521"
        #expect(try key.thumbprint() != (try Fixtures.bobJWK.thumbprint()))
        Fixtures.expectError(.unsupportedCurve("")) { _ = try JWSVerificationKey(jwk: key) }
        Fixtures.expectError(.unsupportedCurve("")) { _ = try JWSSigningKey(jwk: key) }
        Fixtures.expectError(.unsupportedCurve("")) { _ = try key.p256PublicKey() }
        Fixtures.expectError(.unsupportedCurve("")) { _ = try key.p256KeyAgreementPublicKey() }
    }

    /// A key type this version does not support is refused as `unsupportedKeyType` by every use.
    @Test func anUnsupportedKeyTypeIsRefusedWhereItIsUsed() throws {
        var key = Fixtures.bobJWK
        key.kty = "oct"
        Fixtures.expectError(.unsupportedKeyType("")) { _ = try key.thumbprint() }
        Fixtures.expectError(.unsupportedKeyType("")) { _ = try JWSVerificationKey(jwk: key) }
        Fixtures.expectError(.unsupportedKeyType("")) { _ = try JWSSigningKey(jwk: key) }
        Fixtures.expectError(.unsupportedKeyType("")) { _ = try key.p256PrivateKey() }
        key.kty = .okp
        Fixtures.expectError(.unsupportedKeyType("")) { _ = try JWSVerificationKey(jwk: key) }
        Fixtures.expectError(.unsupportedKeyType("")) { _ = try JWSSigningKey(jwk: key) }
    }

    /// A key set holding a key of another type still parses, and its other keys still serve.
    @Test func aKeySetWithAnUnsupportedKeyStillServes() throws {
        var bob = Fixtures.bobJWK.publicKey
        bob.kid = "b"
        let json = #"{"keys":[{"kty":"oct","kid":"s"},"# + String(decoding: try bob.jsonData(), as: UTF8.self) + "]}"
        let set = try JSONDecoder().decode(JWKSet.self, from: Data(json.utf8))
        #expect(set.keys.map(\.kty.rawValue) == ["oct", "EC"])
        let found = try #require(set.key(withID: "b"))
        #expect(try JWSVerificationKey(jwk: found) == JWSVerificationKey(jwk: Fixtures.bobJWK))
    }

    /// RFC 7517 §4.2: no `use` serves any purpose, a `use` only its own, one this version does not name none.
    @Test func aKeyServesItsUseOnly() {
        var key = Fixtures.bobJWK.publicKey
        #expect(key.serves(.signature) && key.serves(.encryption))
        key.use = .signature
        #expect(key.serves(.signature) && !key.serves(.encryption))
        key.use = .encryption
        #expect(!key.serves(.signature) && key.serves(.encryption))
        key.use = "wrap"
        #expect(!key.serves(.signature) && !key.serves(.encryption))
    }
}
