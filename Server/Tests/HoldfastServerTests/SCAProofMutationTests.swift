import Crypto
import Foundation
import HoldfastAdmin
import HoldfastProtocol
@testable import HoldfastServer
import JOSE
import Testing
import TestSupport

/// The mutation campaign of SCA proof verification (docs/security.md "Security", "SCA wallet (back end)"): an honest proof for
/// an operation verifies; each mutation — a member removed (the proof signed again by the PIN key), a signed byte
/// flipped, its time moved past the window, an id swapped for another wallet's, operation's or proof's — is refused
/// with its code.
@Suite struct SCAProofMutationTests {
    @Test func everyMutationOfAnHonestProofIsRefused() async throws {
        try await ServerTestKit.run(.sqlite) { kit in
            let applicationId = try #require(try await kit.createApplication(ServerTestKit.iosApplication()).id)
            #expect(try await kit.admin(SCARoutes.Template.policies, .put, SCAWalletTests.policies).status == .ok)
            let (key, walletId, _) = try await SCAWalletTests.activatedWallet(kit, applicationId: applicationId)
            let (otherKey, otherWalletId, _) = try await SCAWalletTests.activatedWallet(kit, applicationId: applicationId, userId: "user-2")
            let body: JSONValue = .object(["name": .string("Alex Martin"), "iban": .string("FR7630001007941234567890185")])
            let url = "\(SCAWalletTests.base)/v1/beneficiaries"
            let pinKey = try #require(SCAWalletTests.enrolled.withLock { $0[walletId] }?.pinKey)
            var campaign = MutationCampaign(verifier: "SCA proof")
            func code(_ proof: String, method: String = "POST", url: String = url, body: JSONValue? = body) async throws -> String? {
                let verification = try await SCAWalletTests.verify(kit, proof: proof, method: method, url: url, body: body)
                return verification.valid ? nil : verification.code?.rawValue ?? "NO_CODE"
            }
            func honest(jti: String = UUID().uuidString, iat: Date = Date()) throws -> String {
                try SCAWalletTests.proof(walletId: walletId, key: key, method: "POST", url: url, body: body, iat: iat, jti: jti)
            }
            func resigned(_ change: (inout [String: Any], inout [String: Any]) -> Void, key signer: P256.Signing.PrivateKey? = nil) throws -> String {
                var (header, payload) = try #require(JWSMutations.objects(try honest()))
                change(&header, &payload)
                return try JWSMutations.signed(header: header, payload: payload) { Array(try (signer ?? pinKey).signature(for: $0).rawRepresentation) }
            }
            #expect(try await code(try honest()) == nil, "the honest proof must verify")
            #expect(try await code(try resigned { _, _ in }) == nil, "the honest proof signed again by hand must verify")

            // Each member removed, the proof signed again by the PIN key.
            for member in ["typ", "alg", "kid"] {
                campaign.record("header without \(member)", oneOf: [SCAProofFailureCode.malformed.rawValue, SCAProofFailureCode.walletNotFound.rawValue],
                                got: try await code(try resigned { header, _ in header[member] = nil }))
            }
            for member in SCAProofClaims.memberNames.sorted() {
                campaign.record("payload without \(member)", expected: SCAProofFailureCode.malformed.rawValue,
                                got: try await code(try resigned { _, payload in payload[member] = nil }))
            }
            campaign.record("payload with a member more", expected: SCAProofFailureCode.malformed.rawValue,
                            got: try await code(try resigned { _, payload in payload["amount"] = 100 }))

            // Each signed byte flipped (one proof, never accepted, so its jti is never spent).
            for (name, mutated) in JWSMutations.byteFlips(try honest()) {
                campaign.record(name, oneOf: [SCAProofFailureCode.malformed.rawValue, SCAProofFailureCode.signatureInvalid.rawValue, SCAProofFailureCode.walletNotFound.rawValue],
                                got: try await code(mutated))
            }

            // Its time moved past the window.
            campaign.record("iat too old", expected: SCAProofFailureCode.expired.rawValue, got: try await code(try honest(iat: Date().addingTimeInterval(-301))))
            campaign.record("iat in the future", expected: SCAProofFailureCode.expired.rawValue, got: try await code(try honest(iat: Date().addingTimeInterval(301))))

            // Each id swapped for another's.
            campaign.record("signed by another wallet's key", expected: SCAProofFailureCode.signatureInvalid.rawValue,
                            got: try await code(try resigned({ _, _ in }, key: otherKey)))
            // The header's kid must be the payload's walletId.
            campaign.record("kid of another wallet", expected: SCAProofFailureCode.malformed.rawValue,
                            got: try await code(try resigned { header, _ in header["kid"] = otherWalletId }))
            campaign.record("walletId of another wallet", oneOf: [SCAProofFailureCode.malformed.rawValue, SCAProofFailureCode.signatureInvalid.rawValue],
                            got: try await code(try resigned { _, payload in payload["walletId"] = otherWalletId }))
            campaign.record("a wallet that does not exist", expected: SCAProofFailureCode.walletNotFound.rawValue,
                            got: try await code(try resigned { header, payload in
                                let id = UUID().uuidString.lowercased()
                                header["kid"] = id
                                payload["walletId"] = id
                            }))
            campaign.record("presented for another method", expected: SCAProofFailureCode.methodMismatch.rawValue,
                            got: try await code(try SCAWalletTests.proof(walletId: walletId, key: key, method: "DELETE", url: "\(SCAWalletTests.base)/v1/cards/7", body: nil),
                                                method: "PUT", url: "\(SCAWalletTests.base)/v1/cards/7", body: .object([:])))
            // A request with a body signs its endpoint without the query (docs/server-api.md "SCA wallet (back end)"): another path.
            campaign.record("presented for another endpoint", expected: SCAProofFailureCode.policyNotFound.rawValue,
                            got: try await code(try honest(), url: "\(SCAWalletTests.base)/v1/beneficiaries/7"))
            campaign.record("presented for another card", expected: SCAProofFailureCode.payloadMismatch.rawValue,
                            got: try await code(try SCAWalletTests.proof(walletId: walletId, key: key, method: "DELETE", url: "\(SCAWalletTests.base)/v1/cards/7", body: nil),
                                                method: "DELETE", url: "\(SCAWalletTests.base)/v1/cards/8", body: nil))
            campaign.record("presented for another host", expected: SCAProofFailureCode.payloadMismatch.rawValue,
                            got: try await code(try honest(), url: "https://api.other-bank.example/v1/beneficiaries"))
            campaign.record("signed for another url", expected: SCAProofFailureCode.payloadMismatch.rawValue,
                            got: try await code(try resigned { _, payload in payload["url"] = "https://evil.example/v1/beneficiaries" }))
            campaign.record("presented with another body", expected: SCAProofFailureCode.payloadMismatch.rawValue,
                            got: try await code(try honest(), body: .object(["name": .string("Eve"), "iban": .string("FR7630001007941234567890185")])))
            // A weaker pattern, signed by the key of that pattern (the wallet key), or claimed over the PIN key's signature.
            campaign.record("a weaker pattern signed", expected: SCAProofFailureCode.patternInsufficient.rawValue,
                            got: try await code(try resigned({ _, payload in payload["pattern"] = "none" }, key: key)))
            campaign.record("a pattern its key does not give", expected: SCAProofFailureCode.signatureInvalid.rawValue,
                            got: try await code(try resigned { _, payload in payload["pattern"] = "biometry" }))
            campaign.record("a pin proof signed by the wallet key", expected: SCAProofFailureCode.signatureInvalid.rawValue,
                            got: try await code(try resigned({ _, _ in }, key: key)))
            let spent = try honest()
            #expect(try await code(spent) == nil)
            campaign.record("a spent proof replayed", expected: SCAProofFailureCode.replayed.rawValue, got: try await code(spent))
            let jti = UUID().uuidString
            #expect(try await code(try honest(jti: jti)) == nil)
            campaign.record("another proof with a spent jti", expected: SCAProofFailureCode.replayed.rawValue, got: try await code(try honest(jti: jti)))

            // Last, as it locks the wallet: a counter not above the last accepted one is a clone's.
            campaign.record("a repeated counter", expected: SCAProofFailureCode.fraudSuspicion.rawValue,
                            got: try await code(try resigned { _, payload in payload["counter"] = 1 }))

            campaign.report()
            #expect(campaign.escapes.isEmpty, "\(campaign.escapes)")
            #expect(campaign.total > 300)
        }
    }
}
