import Crypto
import Foundation
import HoldfastProtocol
@testable import HoldfastServer
import HTTPTypes
import HummingbirdTesting
import Testing

/// The token endpoint reads the pre-authorized code before it records the client attestation PoP and DPoP `jti`s
/// (docs/server-api.md "Credentials"): a registered instance sending junk codes writes nothing to the replay part of the ephemeral
/// store, so the instance calls that need that room go on.
@Suite struct TokenEndpointReplayTests {
    @Test(arguments: StorageBackend.available)
    func junkCodesFromARegisteredInstanceLeaveTheReplayRoomToInstanceCalls(_ backend: StorageBackend) async throws {
        try await ServerTestKit.run(backend, configure: {
            $0.ephemeralCapacity = EphemeralCapacity(challengeEntries: 100, replayEntries: 100)
            $0.rateLimit = .off
        }) { kit in
            let wallet = try await IssuanceTestWallet.make(kit)
            let endpoint = try await wallet.endpoints().token
            // Each request is honest but for its code: a good attestation, a fresh PoP and a fresh DPoP proof. Were
            // their jtis recorded, 150 of them would need 300 places in a part of 100.
            for index in 0..<150 {
                let refused = try await wallet.tokenRequest(endpoint: endpoint, code: "junk-\(index)", dpopKey: P256.Signing.PrivateKey())
                #expect(refused.status == .badRequest, "junk code \(index): \(refused.status) \(refused.text)")
                #expect(IssuanceTestWallet.oauthError(refused) == "invalid_grant")
            }
            for _ in 0..<3 {
                let renewal = try await kit.call(wallet.device, TetheringRoutes.Template.license)
                #expect(renewal.status == .ok, "renewal: \(renewal.status) \(renewal.text)")
            }
            let status = try await kit.client.execute(uri: "/health", method: .get).decode(HealthStatus.self)
            #expect(status.ephemeralStore.fullParts.isEmpty)
            // A good code still gets its token.
            try await wallet.createConfiguration()
            let (_, code) = try await wallet.offer()
            _ = try wallet.accessToken(try await wallet.tokenRequest(endpoint: endpoint, code: code, dpopKey: P256.Signing.PrivateKey()))
        }
    }
}
