import Crypto
import Foundation
import HoldfastProtocol
@testable import HoldfastServer
import HTTPTypes
import JOSE
import Testing
import TestSupport

/// The mutation campaign of instance registration (docs/security.md "Security", "Registration wire format"): an honest
/// registration (an assertion, and an Android key attestation) succeeds; each mutation — a member removed, a signed
/// byte flipped, a certificate swapped, the challenge's time moved past its window, an id swapped for another
/// application's or another key's — is refused with its code.
@Suite struct RegistrationMutationTests {
    static func body(_ request: InstanceRegistrationRequest) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: try HoldfastJSON.encode(request)) as? [String: Any])
    }

    static func decoded(_ value: Any?) throws -> [UInt8] {
        let text = try #require(value as? String)
        // publicKey is standard base64 (docs/server-api.md "Registration wire format"), the assertion base64url.
        return try #require(Data(base64Encoded: text).map(Array.init) ?? Base64URL.decode(text))
    }

    static func send(_ kit: ServerTestKit, _ applicationId: String, _ body: [String: Any]) async throws -> String? {
        let data = try JSONSerialization.data(withJSONObject: body)
        let response = try await kit.client.execute(uri: TetheringRoutes.Template.instances.path(["applicationId": applicationId]), method: .post,
                                                    headers: .json(bearer: nil), body: jsonBody(String(decoding: data, as: UTF8.self)))
        return response.status == .created ? nil : response.problemCode ?? "HTTP \(response.status.code)"
    }

    @Test func everyMutationOfAnHonestRegistrationIsRefused() async throws {
        let clock = ManualClock(Date())
        try await ServerTestKit.run(.sqlite, clock: clock, configure: { $0.tethering.challengeLifetime = .seconds(60) }) { kit in
            var campaign = MutationCampaign(verifier: "instance registration")
            let ios = try #require(try await kit.createApplication(ServerTestKit.iosApplication()).id)
            let other = try #require(try await kit.createApplication(ServerTestKit.iosApplication()).id)
            let android = try #require(try await kit.createApplication(ServerTestKit.androidApplication()).id)

            /// An honest assertion registration's body with a fresh challenge and key.
            func honest(_ applicationId: String = ios) async throws -> (body: [String: Any], key: P256.Signing.PrivateKey, challenge: String) {
                let key = P256.Signing.PrivateKey()
                let challenge = try await kit.challenge(applicationId)
                return (try Self.body(try ServerTestKit.registration(challenge: challenge, key: key)), key, challenge)
            }
            #expect(try await Self.send(kit, ios, try await honest().body) == nil, "the honest registration must succeed")

            // Each member removed.
            let removals: [(String, Set<String>)] = [
                ("challenge", ["VALIDATION_FAILED", "INVALID_JSON"]), ("publicKey", ["VALIDATION_FAILED", "INVALID_JSON"]),
                ("assertion", ["INVALID_ATTESTATION", "VALIDATION_FAILED", "ATTESTATION_REQUIRED"]),
                ("deviceDetails", ["VALIDATION_FAILED", "INVALID_JSON"]), ("sdkDetails", ["VALIDATION_FAILED", "INVALID_JSON"]),
            ]
            for (member, expected) in removals {
                var body = try await honest().body
                body[member] = nil
                campaign.record("without \(member)", oneOf: expected, got: try await Self.send(kit, ios, body))
            }

            // Each signed byte flipped: the assertion (over the binding nonce), the public key it binds, the challenge
            // (a MAC'd token).
            let flipped = try await honest()
            for index in 0..<64 {
                // A fresh body (fresh challenge) each time, its own assertion's byte flipped.
                var body = try await honest().body
                var own = try Self.decoded(body["assertion"])
                own[index] ^= index.isMultiple(of: 2) ? 0x01 : 0x80
                body["assertion"] = Base64URL.encode(own)
                campaign.record("assertion byte \(index) flipped", oneOf: ["INVALID_ATTESTATION"], got: try await Self.send(kit, ios, body))
            }
            for index in try Self.decoded(flipped.body["publicKey"]).indices {
                var body = try await honest().body
                var own = try Self.decoded(body["publicKey"])
                own[index] ^= index.isMultiple(of: 2) ? 0x01 : 0x80
                body["publicKey"] = Data(own).base64EncodedString()
                campaign.record("public key byte \(index) flipped", oneOf: ["INVALID_ATTESTATION", "VALIDATION_FAILED"], got: try await Self.send(kit, ios, body))
            }
            for index in Array(flipped.challenge.utf8).indices {
                let (body, key, challenge) = try await honest()
                var characters = Array(challenge.utf8)
                // Stay inside the base64url alphabet: swap the character for its neighbour.
                characters[index] = characters[index] == UInt8(ascii: "A") ? UInt8(ascii: "B") : UInt8(ascii: "A")
                let mutated = String(decoding: characters, as: UTF8.self)
                var signed = try Self.body(try ServerTestKit.registration(challenge: mutated, key: key))
                signed["deviceDetails"] = body["deviceDetails"]
                campaign.record("challenge character \(index) changed", oneOf: ["INVALID_CHALLENGE", "VALIDATION_FAILED"], got: try await Self.send(kit, ios, signed))
            }

            // The challenge's time moved past its window.
            let late = try await honest()
            clock.advance(by: 61)
            campaign.record("challenge past its lifetime", expected: "CHALLENGE_EXPIRED", got: try await Self.send(kit, ios, late.body))

            // Each id swapped for another's.
            let spent = try await honest()
            #expect(try await Self.send(kit, ios, spent.body) == nil)
            campaign.record("a spent challenge", expected: "INVALID_CHALLENGE",
                            got: try await Self.send(kit, ios, try Self.body(try ServerTestKit.registration(challenge: spent.challenge, key: .init()))))
            campaign.record("another application's challenge", expected: "INVALID_CHALLENGE", got: try await Self.send(kit, ios, try await honest(other).body))
            var otherKey = try await honest()
            otherKey.body["publicKey"] = InstancePublicKey(P256.Signing.PrivateKey().publicKey).encoded
            campaign.record("the public key of another key", expected: "INVALID_ATTESTATION", got: try await Self.send(kit, ios, otherKey.body))
            let overOther = try await honest()
            var overOtherBody = overOther.body
            overOtherBody["assertion"] = try InstanceAssertion.sign(BindingNonce(challenge: try await kit.challenge(ios),
                                                                                 publicKey: InstancePublicKey(overOther.key.publicKey)), with: overOther.key)
            campaign.record("an assertion over another challenge", expected: "INVALID_ATTESTATION", got: try await Self.send(kit, ios, overOtherBody))

            // Android key attestation: each certificate swapped for one from another chain.
            func androidBody(_ chain: (P256.Signing.PrivateKey, [UInt8]) throws -> [[UInt8]]) async throws -> [String: Any] {
                let key = P256.Signing.PrivateKey()
                let challenge = try await kit.challenge(android)
                let nonce = BindingNonce(challenge: challenge, publicKey: InstancePublicKey(key.publicKey))
                return try Self.body(try ServerTestKit.registration(challenge: challenge, key: key,
                                                                       attestation: .androidKeyAttestation(certificateChain: try chain(key, nonce.bytes))))
            }
            let stranger = try TestAttestationAuthority()
            func chain(_ authority: TestAttestationAuthority, _ key: P256.Signing.PrivateKey, _ nonce: [UInt8]) throws -> [[UInt8]] {
                try authority.androidChain(instanceKey: key.publicKey, challenge: nonce, packageName: "com.example.wallet",
                                           signingDigest: ServerTestKit.signingDigest)
            }
            #expect(try await Self.send(kit, android, try await androidBody { try chain(kit.authority, $0, $1) }) == nil, "the honest Android registration")
            campaign.record("Android leaf from another chain", oneOf: ["INVALID_ATTESTATION", "ATTESTATION_FAILED"],
                            got: try await Self.send(kit, android, try await androidBody { key, nonce in
                                [try chain(stranger, key, nonce)[0], kit.authority.intermediateDER]
                            }))
            campaign.record("Android intermediate from another chain", oneOf: ["INVALID_ATTESTATION", "ATTESTATION_FAILED"],
                            got: try await Self.send(kit, android, try await androidBody { key, nonce in
                                [try chain(kit.authority, key, nonce)[0], stranger.intermediateDER]
                            }))
            campaign.record("Android chain of another root", oneOf: ["INVALID_ATTESTATION", "ATTESTATION_FAILED"],
                            got: try await Self.send(kit, android, try await androidBody { try chain(stranger, $0, $1) }))
            campaign.record("Android attestation of another key", oneOf: ["INVALID_ATTESTATION", "ATTESTATION_FAILED"],
                            got: try await Self.send(kit, android, try await androidBody { _, nonce in try chain(kit.authority, P256.Signing.PrivateKey(), nonce) }))
            // docs/sdk.md "Registration errors": a nonce mismatch is INVALID_CHALLENGE.
            campaign.record("Android attestation over another nonce", expected: "INVALID_CHALLENGE",
                            got: try await Self.send(kit, android, try await androidBody { key, _ in try chain(kit.authority, key, Array(repeating: 1, count: 32)) }))
            // Each signed byte of the leaf flipped.
            let leafLength = try chain(kit.authority, P256.Signing.PrivateKey(), Array(repeating: 0, count: 32))[0].count
            for index in 0..<leafLength {
                // A leaf's length varies with its DER signature (70 to 72 bytes): a byte past this one's end is skipped.
                var flipped = false
                let body = try await androidBody { key, nonce in
                    var certificates = try chain(kit.authority, key, nonce)
                    if index < certificates[0].count {
                        certificates[0][index] ^= index.isMultiple(of: 2) ? 0x01 : 0x80
                        flipped = true
                    }
                    return certificates
                }
                guard flipped else { continue }
                campaign.record("Android leaf byte \(index) flipped", oneOf: ["INVALID_ATTESTATION", "ATTESTATION_FAILED"],
                                got: try await Self.send(kit, android, body))
            }

            campaign.report()
            #expect(campaign.escapes.isEmpty, "\(campaign.escapes)")
            #expect(campaign.total > 200)
        }
    }
}
