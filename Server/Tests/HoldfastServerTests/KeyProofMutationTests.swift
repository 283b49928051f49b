import Crypto
import Foundation
import HoldfastProtocol
@testable import HoldfastServer
import JOSE
import Testing
import TestSupport

/// The mutation campaign of the credential endpoint's key proof (docs/security.md "Security"; OpenID4VCI 1.0 Appendix F.1,
/// §8.2): an honest `openid4vci-proof+jwt` with a fresh `c_nonce` gets a credential; each mutation — a member removed
/// (the proof signed again by its key), a signed byte flipped, its time moved past the window, an id swapped for
/// another issuer's, client's, key's or request's — is refused with its OAuth error, and none spends the access token.
@Suite struct KeyProofMutationTests {
    static func proofObjects(key: P256.Signing.PrivateKey, nonce: String, issuedAt: Date = Date()) -> (header: [String: Any], payload: [String: Any]) {
        let jwk = JWSSigningKey(key).publicJWK
        return (["typ": "openid4vci-proof+jwt", "alg": "ES256", "jwk": ["kty": "EC", "crv": "P-256", "x": jwk.x ?? "", "y": jwk.y ?? ""]],
                ["aud": ServerTestKit.publicURL, "iat": Int(issuedAt.timeIntervalSince1970), "nonce": nonce])
    }

    static func signed(_ objects: (header: [String: Any], payload: [String: Any]), key: P256.Signing.PrivateKey) throws -> String {
        try JWSMutations.signed(header: objects.header, payload: objects.payload) { Array(try key.signature(for: $0).rawRepresentation) }
    }

    @Test func everyMutationOfAnHonestKeyProofIsRefused() async throws {
        try await ServerTestKit.run(.sqlite) { kit in
            let wallet = try await IssuanceTestWallet.make(kit)
            try await wallet.createConfiguration()
            let endpoints = try await wallet.endpoints()
            let dpopKey = P256.Signing.PrivateKey()
            let token = try wallet.accessToken(try await wallet.tokenRequest(endpoint: endpoints.token, code: try await wallet.offer().code, dpopKey: dpopKey))
            let credentialKey = P256.Signing.PrivateKey()
            var campaign = MutationCampaign(verifier: "OpenID4VCI key proof")
            func code(_ proof: String) async throws -> String? {
                let response = try await wallet.credentialRequest(endpoint: endpoints.credential, accessToken: token, dpopKey: dpopKey, proof: proof)
                return response.status == .ok ? nil : IssuanceTestWallet.oauthError(response) ?? "HTTP \(response.status.code)"
            }
            func fresh(_ change: (inout (header: [String: Any], payload: [String: Any])) -> Void = { _ in },
                       signer: P256.Signing.PrivateKey? = nil, issuedAt: Date = Date()) async throws -> String {
                var objects = Self.proofObjects(key: credentialKey, nonce: try await wallet.nonce(endpoint: endpoints.nonce), issuedAt: issuedAt)
                change(&objects)
                return try Self.signed(objects, key: signer ?? credentialKey)
            }

            // Each member removed, the proof signed again by its key.
            for (member, inHeader, expected) in [("typ", true, "invalid_proof"), ("alg", true, "invalid_proof"), ("jwk", true, "invalid_proof"),
                                                 ("aud", false, "invalid_proof"), ("iat", false, "invalid_proof"), ("nonce", false, "invalid_nonce")] {
                let proof = try await fresh { objects in
                    if inHeader { objects.header[member] = nil } else { objects.payload[member] = nil }
                }
                campaign.record("proof without \(member)", expected: expected, got: try await code(proof))
            }
            // Each signed byte flipped.
            for (name, mutated) in JWSMutations.byteFlips(try await fresh()) {
                campaign.record("proof \(name)", oneOf: ["invalid_proof", "invalid_nonce"], got: try await code(mutated))
            }
            // Its time moved past the window.
            campaign.record("proof iat old", expected: "invalid_proof", got: try await code(try await fresh(issuedAt: Date().addingTimeInterval(-301))))
            campaign.record("proof iat in the future", expected: "invalid_proof", got: try await code(try await fresh(issuedAt: Date().addingTimeInterval(60))))
            // Each id swapped for another's.
            campaign.record("aud of another issuer", expected: "invalid_proof",
                            got: try await code(try await fresh { $0.payload["aud"] = "https://other-issuer.example" }))
            campaign.record("iss of another client", expected: "invalid_proof", got: try await code(try await fresh { $0.payload["iss"] = "another-client" }))
            campaign.record("signed by another key than its jwk", expected: "invalid_proof", got: try await code(try await fresh(signer: P256.Signing.PrivateKey())))
            campaign.record("a kid beside the jwk", expected: "invalid_proof", got: try await code(try await fresh { $0.header["kid"] = "device-key" }))
            campaign.record("an x5c beside the jwk", expected: "invalid_proof", got: try await code(try await fresh { $0.header["x5c"] = ["MIIB"] }))
            campaign.record("typ JWT", expected: "invalid_proof", got: try await code(try await fresh { $0.header["typ"] = "JWT" }))
            campaign.record("typ of a DPoP proof", expected: "invalid_proof", got: try await code(try await fresh { $0.header["typ"] = "dpop+jwt" }))
            campaign.record("a nonce the issuer never made", expected: "invalid_nonce",
                            got: try await code(try await fresh { $0.payload["nonce"] = "bm90LWEtbm9uY2U" }))
            campaign.record("a DPoP nonce for a c_nonce", expected: "invalid_nonce",
                            got: try await code(try await fresh { $0.payload["nonce"] = DPoPProof.randomJTI() }))

            // The honest proof still gets its credential (no refusal spent the token), and its c_nonce then is spent.
            let nonce = try await wallet.nonce(endpoint: endpoints.nonce)
            #expect(try await code(try Self.signed(Self.proofObjects(key: credentialKey, nonce: nonce), key: credentialKey)) == nil,
                    "the honest proof must get its credential")
            let second = try wallet.accessToken(try await wallet.tokenRequest(endpoint: endpoints.token, code: try await wallet.offer().code, dpopKey: dpopKey))
            let replayed = try await wallet.credentialRequest(endpoint: endpoints.credential, accessToken: second, dpopKey: dpopKey,
                                                              proof: try Self.signed(Self.proofObjects(key: credentialKey, nonce: nonce), key: credentialKey))
            campaign.record("a spent c_nonce", expected: "invalid_nonce", got: replayed.status == .ok ? nil : IssuanceTestWallet.oauthError(replayed))

            campaign.report()
            #expect(campaign.escapes.isEmpty, "\(campaign.escapes)")
            #expect(campaign.total > 300)
        }
    }
}
