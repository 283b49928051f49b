import Crypto
import Ephemeral
import Foundation
import HoldfastAdmin
import HoldfastProtocol
@testable import HoldfastServer
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import JOSE
import Testing
import TestSupport

/// docs/operations.md "A store that lost its memory": a Redis restarted without persistence forgets what was spent. The tenant notices at the next
/// single-use record (the store's epoch key is gone), makes that moment the epoch, and refuses every item issued
/// before it — a spent registration challenge, DPoP proof or SCA proof is not accepted a second time — while items
/// issued after it work.
@Suite struct EphemeralEpochTests {
    /// A Redis database of its own (13), so that flushing it touches no other test's keys.
    static func dedicatedRedisURL() throws -> String {
        let configuration = try RedisConfiguration(url: try #require(TestEnvironment.redisURL))
        let host = configuration.host.contains(":") ? "[\(configuration.host)]" : configuration.host
        return "redis://\(host):\(configuration.port)/13"
    }

    /// What a restart without persistence leaves: an empty Redis.
    static func flush(_ url: String) async throws {
        let client = RedisClient(configuration: try RedisConfiguration(url: url))
        let reply = try await client.send(RedisCommand("FLUSHDB", isIdempotent: false))
        await client.shutdown()
        #expect(reply == .simpleString("OK"))
    }

    @Test(.enabled(if: TestEnvironment.redisURL != nil, "Redis variant skipped: HOLDFAST_TEST_REDIS_URL is not set"))
    func whatWasSpentBeforeRedisLostItsMemoryIsRefused() async throws {
        let redisURL = try Self.dedicatedRedisURL()
        // No clock-skew allowance, so that items issued right after the loss are accepted at once (the allowance has
        // its own tests in RedisRestartTests).
        try await ServerTestKit.run(.sqlite, configure: {
            $0.ephemeral = .redis(url: redisURL)
            $0.redisClockSkew = .zero
        }) { kit in
            let applicationId = try #require(try await kit.createApplication(ServerTestKit.iosApplication()).id)
            // Spent before the loss: a registration, an instance call's DPoP proof, an SCA proof.
            let registration = try ServerTestKit.registration(challenge: try await kit.challenge(applicationId), key: P256.Signing.PrivateKey())
            #expect(try await kit.register(applicationId, registration).status == .created)
            let device = try await kit.registerDevice(applicationId)
            let renewal = TetheringRoutes.Template.license
            let earlier = Date()
            let dpop = try DPoPProof.create(method: "POST", uri: ServerTestKit.publicURL + device.path(renewal), key: JWSSigningKey(device.key),
                                            issuedAt: earlier, accessToken: device.licenseToken)
            #expect(try await kit.call(device, renewal, proof: dpop).status == .ok)
            #expect(try await kit.call(device, renewal, proof: dpop).problemCode == HoldfastErrorCode.invalidDPoPProof.rawValue)
            #expect(try await kit.admin(SCARoutes.Template.policies, .put, SCAWalletTests.policies).status == .ok)
            let (walletKey, walletId, _) = try await SCAWalletTests.activatedWallet(kit, applicationId: applicationId)
            let url = "\(SCAWalletTests.base)/v1/cards/9/Activate"
            let sca = try SCAWalletTests.proof(walletId: walletId, key: walletKey, method: "PUT", url: url, body: nil, pattern: .none,
                                               iat: earlier)
            #expect(try await SCAWalletTests.verify(kit, proof: sca, method: "PUT", url: url, body: nil).valid)

            // Proofs are dated in whole seconds and counted as made at the end of their second: the loss comes in a
            // later second than the one they were made in.
            try await Task.sleep(for: .milliseconds(Int64(1_010 - Date().timeIntervalSince1970.truncatingRemainder(dividingBy: 1) * 1_000)))
            try await Self.flush(redisURL)

            // Each replayed: refused for having been issued before the new epoch, with its code.
            let again = try await kit.register(applicationId, registration)
            #expect(again.status == .badRequest && again.problemCode == HoldfastErrorCode.issuedBeforeStoreReset.rawValue, "\(again.text)")
            let replayed = try await kit.call(device, renewal, proof: dpop)
            #expect(replayed.status == .unauthorized && replayed.problemCode == HoldfastErrorCode.issuedBeforeStoreReset.rawValue,
                    "\(replayed.text)")
            #expect(try await SCAWalletTests.verify(kit, proof: sca, method: "PUT", url: url, body: nil).code
                    == SCAProofFailureCode.issuedBeforeStoreReset)
            let instances = try await kit.admin(TetheringRoutes.Template.instances, ["applicationId": applicationId], .get).wire(InstancePage.self)
            #expect(instances.data.count == 2)

            // Issued after the epoch: accepted once.
            let fresh = try ServerTestKit.registration(challenge: try await kit.challenge(applicationId), key: P256.Signing.PrivateKey())
            #expect(try await kit.register(applicationId, fresh).status == .created)
            #expect(try await kit.register(applicationId, fresh).problemCode == HoldfastErrorCode.invalidChallenge.rawValue)
            let later = Date()
            let freshDPoP = try DPoPProof.create(method: "POST", uri: ServerTestKit.publicURL + device.path(renewal), key: JWSSigningKey(device.key),
                                                 issuedAt: later, accessToken: device.licenseToken)
            #expect(try await kit.call(device, renewal, proof: freshDPoP).status == .ok)
            #expect(try await kit.call(device, renewal, proof: freshDPoP).problemCode == HoldfastErrorCode.invalidDPoPProof.rawValue)
            let freshSCA = try SCAWalletTests.proof(walletId: walletId, key: walletKey, method: "PUT", url: url, body: nil,
                                                    pattern: .none, iat: later)
            #expect(try await SCAWalletTests.verify(kit, proof: freshSCA, method: "PUT", url: url, body: nil).valid)
            #expect(try await SCAWalletTests.verify(kit, proof: freshSCA, method: "PUT", url: url, body: nil).code
                    == SCAProofFailureCode.replayed)
        }
    }

    /// The in-memory store is the process's memory: a tenant started again (same database and master key) refuses a
    /// challenge that the previous process issued and saw spent.
    @Test func aRestartedNodeWithAMemoryStoreRefusesWhatItsPredecessorIssued() async throws {
        let authority = try TestAttestationAuthority()
        let roots = try authority.roots
        try await StorageBackend.sqlite.withConfiguration { base in
            var configuration = base
            configuration.publicURL = ServerTestKit.publicURL
            configuration.tethering.appAttestTrustedRoots = roots
            configuration.tethering.androidTrustedRoots = roots
            configuration.masterKey = .provided(Array(repeating: 9, count: 32))
            let shared = configuration
            let (first, startup) = try await HoldfastApplication.build(configuration: shared, options: .init(logger: StorageBackend.quietLogger))
            let adminKey = try #require(startup.bootstrapAdminKey)
            let (applicationId, registration) = try await first.test(.router) { client in
                let kit = ServerTestKit(client: client, adminKey: adminKey, authority: authority, configuration: shared)
                let applicationId = try #require(try await kit.createApplication(ServerTestKit.iosApplication()).id)
                let registration = try ServerTestKit.registration(challenge: try await kit.challenge(applicationId), key: P256.Signing.PrivateKey())
                #expect(try await kit.register(applicationId, registration).status == .created)
                return (applicationId, registration)
            }
            // The next process starts a millisecond later at least: its epoch is after the challenge was issued.
            try await Task.sleep(for: .milliseconds(5))
            let (second, _) = try await HoldfastApplication.build(configuration: shared, options: .init(logger: StorageBackend.quietLogger))
            try await second.test(.router) { client in
                let kit = ServerTestKit(client: client, adminKey: adminKey, authority: authority, configuration: shared)
                let again = try await kit.register(applicationId, registration)
                #expect(again.problemCode == HoldfastErrorCode.issuedBeforeStoreReset.rawValue, "\(again.text)")
                let fresh = try ServerTestKit.registration(challenge: try await kit.challenge(applicationId), key: P256.Signing.PrivateKey())
                #expect(try await kit.register(applicationId, fresh).status == .created)
            }
        }
    }
}
