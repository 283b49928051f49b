import Crypto
import Foundation
import JOSE
import TestSupport
import Testing

/// Interop with jwcrypto, joserfc and polaris-oid4vp through shared/peers/peer_jose.py: what we make, they accept,
/// and the other way round.
@Suite(.enabled(if: Peer.isAvailable, Peer.unavailableReason))
struct JOSEInteropTests {
    /// Writes a JWK (private when asked) to a fresh temporary file and returns its path.
    func keyFile(_ jwk: JWK, includingPrivateKey: Bool) throws -> String {
        let argument = try Peer.fileArgument(Array(try jwk.jsonData(includingPrivateKey: includingPrivateKey)), name: "key.jwk")
        return String(argument.dropFirst())
    }

    func run(_ arguments: [String]) async throws -> (Peer.Result, [String: Any]) {
        let result = try await Peer.run("peer_jose.py", arguments)
        return (result, try result.object())
    }

    @Test(arguments: [JWSAlgorithm.es256, .es384])
    func jwsWeSignVerifiesWithJwcryptoAndJoserfc(_ algorithm: JWSAlgorithm) async throws {
        let key = algorithm == .es256 ? JWSSigningKey(P256.Signing.PrivateKey(), kid: "k1")
                                      : JWSSigningKey(P384.Signing.PrivateKey(), kid: "k1")
        var header = JOSEHeader()
        header.typ = "JWT"
        header.kid = "k1"
        try header.setJWK(key.publicJWK)
        let token = try JWT.sign(claims: JWTClaims(iss: "holdfast", exp: Fixtures.now), header: header, key: key)
        let (result, object) = try await run(["jws-verify", "--token", token, "--key", keyFile(key.publicJWK, includingPrivateKey: false),
                                        "--alg", algorithm.rawValue])
        #expect(result.accepted, "\(result.stdout) \(result.stderr)")
        #expect((object["results"] as? [[String: Any]])?.count == 2)
    }

    @Test(arguments: ["jwcrypto", "joserfc"])
    func jwsTheySignVerifiesWithUs(_ impl: String) async throws {
        let jwk = JWK(privateKey: P256.Signing.PrivateKey())
        let (result, object) = try await run(["jws-sign", "--impl", impl, "--key", keyFile(jwk, includingPrivateKey: true),
                                        "--header", #"{"typ":"JWT","kid":"peer"}"#, "--payload", #"{"sub":"x"}"#])
        #expect(result.accepted, "\(result.stdout) \(result.stderr)")
        let jws = try JWS(compactSerialization: try #require(object["token"] as? String))
        try jws.verify(with: JWSVerificationKey(jwk: jwk.publicKey), allowedAlgorithms: [.es256])
        #expect(jws.header.kid == "peer")
        #expect(try JWTClaims(payload: jws.payload).sub == "x")
    }

    /// A peer-signed JWS carrying its key in `jwk` verifies with our embedded-key verifier.
    @Test func peerSignedJWSWithJWKHeaderVerifiesWithTheEmbeddedKey() async throws {
        let jwk = JWK(privateKey: P256.Signing.PrivateKey())
        let header = String(decoding: try jwk.publicKey.jsonData(), as: UTF8.self)
        let (result, object) = try await run(["jws-sign", "--impl", "joserfc", "--key", keyFile(jwk, includingPrivateKey: true),
                                        "--header", #"{"typ":"dpop+jwt","jwk":\#(header)}"#, "--payload", "{}"])
        #expect(result.accepted, "\(result.stdout) \(result.stderr)")
        let verified = try await JWSVerifier(keySource: .embeddedJWK, expectedType: "dpop+jwt")
            .verify(try #require(object["token"] as? String))
        #expect(verified.key.jwk == jwk.publicKey)
    }

    @Test(arguments: JWEContentEncryption.allCases)
    func jweWeEncryptDecryptsInEveryPeer(_ encryption: JWEContentEncryption) async throws {
        let recipient = P256.KeyAgreement.PrivateKey()
        let plaintext = #"{"vp_token":"abc","state":"s"}"#
        let token = try JWE.encrypt(plaintext: Array(plaintext.utf8), to: recipient.publicKey, encryption: encryption,
                                    partyUInfo: Array("mdoc-nonce".utf8), partyVInfo: Array("verifier-nonce".utf8), kid: "enc-1")
        let (result, object) = try await run(["jwe-decrypt", "--token", token, "--key", keyFile(JWK(privateKey: recipient), includingPrivateKey: true)])
        #expect(result.accepted, "\(result.stdout) \(result.stderr)")
        #expect(object["plaintexts_agree"] as? Bool == true)
        let results = try #require(object["results"] as? [[String: Any]])
        #expect(results.count == 3)
        for entry in results {
            #expect((entry["plaintext"] as? [String: Any])?["vp_token"] as? String == "abc", "\(entry)")
        }
    }

    @Test(arguments: ["jwcrypto", "joserfc", "polaris-oid4vp"], JWEContentEncryption.allCases)
    func jweTheyEncryptDecryptsWithUs(_ impl: String, _ encryption: JWEContentEncryption) async throws {
        let recipient = P256.KeyAgreement.PrivateKey()
        let apu = Base64URL.encode(Array("wallet".utf8))
        let apv = Base64URL.encode(Array("nonce-123".utf8))
        let (result, object) = try await run(["jwe-encrypt", "--impl", impl, "--key", keyFile(JWK(publicKey: recipient.publicKey), includingPrivateKey: false),
                                        "--enc", encryption.rawValue, "--header", #"{"kid":"enc-1","apu":"\#(apu)","apv":"\#(apv)"}"#,
                                        "--payload", "hello from \(impl)"])
        #expect(result.accepted, "\(result.stdout) \(result.stderr)")
        let jwe = try JWE(compactSerialization: try #require(object["token"] as? String))
        #expect(jwe.header.enc == encryption.rawValue)
        #expect(try jwe.decrypt(with: recipient) == Array("hello from \(impl)".utf8))
    }

    @Test func thumbprintsAgree() async throws {
        for jwk in [JWK(publicKey: P256.Signing.PrivateKey().publicKey, kid: "a", use: "sig"),
                    JWK(publicKey: P384.Signing.PrivateKey().publicKey), Fixtures.bobJWK.publicKey] {
            let (result, object) = try await run(["thumbprint", "--key", keyFile(jwk, includingPrivateKey: false)])
            #expect(result.accepted, "\(result.stdout) \(result.stderr)")
            let results = try #require(object["results"] as? [[String: Any]])
            for entry in results {
                #expect(entry["thumbprint_b64u"] as? String == (try jwk.thumbprint()), "\(entry)")
            }
        }
    }
}
