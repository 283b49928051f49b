import Crypto
import Foundation
import JOSE
import Testing

/// Random and mutated input to every parser: each must return or throw, never crash or hang.
@Suite struct FuzzTests {
    /// A small deterministic generator (SplitMix64) so a failure reproduces.
    struct SeededGenerator: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.=+/{}\":,[] é\u{0}")

    func randomString(_ generator: inout SeededGenerator) -> String {
        let length = Int.random(in: 0 ... 200, using: &generator)
        return String((0 ..< length).map { _ in Self.alphabet.randomElement(using: &generator)! })
    }

    /// Mutations of a valid token: truncation, a changed character, a dropped or repeated segment.
    func mutations(of token: String, _ generator: inout SeededGenerator, count: Int) -> [String] {
        let characters = Array(token)
        var out: [String] = []
        for _ in 0 ..< count {
            var copy = characters
            switch Int.random(in: 0 ..< 4, using: &generator) {
            case 0:
                copy = Array(copy.prefix(Int.random(in: 0 ... copy.count, using: &generator)))
            case 1 where !copy.isEmpty:
                copy[Int.random(in: 0 ..< copy.count, using: &generator)] = Self.alphabet.randomElement(using: &generator)!
            case 2:
                var parts = token.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
                parts.remove(at: Int.random(in: 0 ..< parts.count, using: &generator))
                copy = Array(parts.joined(separator: "."))
            default:
                var parts = token.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
                let index = Int.random(in: 0 ..< parts.count, using: &generator)
                parts[index] = Base64URL.encode(Array(randomString(&generator).utf8))
                copy = Array(parts.joined(separator: "."))
            }
            out.append(String(copy))
        }
        return out
    }

    @Test func parsersNeverCrashOnRandomOrTruncatedInput() async throws {
        var generator = SeededGenerator(state: 0x5EED)
        let signing = JWSSigningKey(P256.Signing.PrivateKey())
        let recipient = P256.KeyAgreement.PrivateKey()
        var header = JOSEHeader()
        try header.setJWK(signing.publicJWK)
        header.setX5C([Fixtures.certificate(for: P256.Signing.PrivateKey().publicKey)])
        let jws = try JWS.sign(payload: Array(#"{"iss":"a","exp":1}"#.utf8), header: header, key: signing).compactSerialization
        let jwe = try JWE.encrypt(plaintext: [1, 2, 3], to: recipient.publicKey, encryption: .a128gcm, partyVInfo: [1])
        let dpop = try DPoPProof.create(method: "POST", uri: "https://a.example/t", key: signing, issuedAt: Fixtures.now)

        var inputs: [String] = (0 ..< 2000).map { _ in randomString(&generator) }
        inputs += mutations(of: jws, &generator, count: 1500)
        inputs += mutations(of: jwe, &generator, count: 1500)
        inputs += mutations(of: dpop, &generator, count: 1500)
        // Structured garbage: valid base64url of random JSON-ish text in each position.
        for _ in 0 ..< 500 {
            let parts = (0 ..< Int.random(in: 1 ... 6, using: &generator)).map { _ in
                Base64URL.encode(Array(randomString(&generator).utf8))
            }
            inputs.append(parts.joined(separator: "."))
        }

        // Deep nesting in a header and in a payload must be refused, not recursed into without bound.
        let deep = Base64URL.encode(Array((String(repeating: "{\"a\":[", count: 50_000)).utf8))
        inputs.append(deep + ".e30.AA")
        inputs.append(Base64URL.encode(Array(#"{"alg":"ES256"}"#.utf8)) + "." + deep + ".AA")

        let dpopVerifier = DPoPVerifier()
        let request = DPoPRequest(method: "POST", uri: "https://a.example/t", accessToken: "t", expectedNonce: "n")
        let verifiers = [JWSVerifier(keySource: .embeddedJWK),
                         JWSVerifier(keySource: .x5c(X5CChainValidation { _, _ in })),
                         JWSVerifier(keySource: .keySet(JWKSet(keys: [signing.publicJWK])))]
        var accepted = 0
        for input in inputs {
            if let parsed = try? JWS(compactSerialization: input) {
                for verifier in verifiers where (try? await verifier.verify(parsed)) != nil { accepted += 1 }
                _ = try? JWTClaims(payload: parsed.payload)
            }
            if let parsed = try? JWE(compactSerialization: input), (try? parsed.decrypt(with: recipient)) != nil { accepted += 1 }
            if (try? dpopVerifier.verify(input, for: request, at: Fixtures.now)) != nil { accepted += 1 }
            _ = try? JWK(json: Array(input.utf8))
            _ = DPoPURI.normalise(input)
            _ = DPoPURI.normalise("https://" + input)
            _ = Base64URL.decode(input)
        }
        #expect(inputs.count >= 7000)
        // The unmutated originals are not in the list, so acceptance can only come from a mutation that kept the
        // token valid (e.g. truncation to the full length) — never from garbage.
        #expect(accepted < inputs.count / 10)
    }
}
