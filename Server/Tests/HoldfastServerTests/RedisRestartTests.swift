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
import Synchronization
import Testing
import TestSupport

/// docs/operations.md "A store that lost its memory", with a Redis of the test's own (`TestRedisServer`): a Redis started again
/// from a snapshot taken before some single-use items were spent has forgotten them, and still holds the epoch it
/// had. The tenant notices the new server (its `run_id` is not the one that wrote the epoch), sets a new epoch, and
/// refuses every kind of item issued before it; a flow begun after it works.
@Suite(.enabled(if: TestRedisServer.isAvailable, Comment(rawValue: TestRedisServer.skipReason)))
struct RedisRestartTests {
    static let scaURL = "\(SCAWalletTests.base)/v1/cards/9/Activate"

    /// What was spent after the snapshot, to be replayed after the restart.
    struct Spent {
        var registration: InstanceRegistrationRequest
        var renewalProof: String
        var tokenDPoP: String
        var tokenPoP: String
        var keyProofNonce: String
        var accessToken: String
        var credentialKey: P256.Signing.PrivateKey
        var credentialDPoP: String
        var scaProof: String
    }

    @Test func aRedisBroughtBackFromAnOldSnapshotRefusesEveryKindOfItemSpentSince() async throws {
        let redis = try await TestRedisServer()
        defer { Task { await redis.remove() } }
        // No clock-skew allowance: this test is about the restart; `twoTenantsWhoseClocksDiffer…` tests the allowance.
        try await ServerTestKit.run(.sqlite, configure: {
            $0.ephemeral = .redis(url: redis.url)
            $0.redisClockSkew = .zero
        }) { kit in
            let applicationId = try #require(try await kit.createApplication(ServerTestKit.iosApplication()).id)
            let device = try await kit.registerDevice(applicationId)
            #expect(try await kit.admin(SCARoutes.Template.policies, .put, SCAWalletTests.policies).status == .ok)
            let (walletKey, walletId, _) = try await SCAWalletTests.activatedWallet(kit, applicationId: applicationId)
            let wallet = try await IssuanceTestWallet.make(kit)
            try await wallet.createConfiguration()
            let endpoints = try await wallet.endpoints()
            try await redis.save()

            // After the snapshot: one item of each kind spent, each accepted once.
            let spent = try await Self.spendOneOfEachKind(kit, device: device, applicationId: applicationId, wallet: wallet,
                                                          endpoints: endpoints, walletKey: walletKey, walletId: walletId)
            // Proofs are dated in whole seconds and counted as made at the end of their second: the restart comes in
            // a later second than the one they were made in.
            try await Task.sleep(for: .milliseconds(Int64(1_010 - Date().timeIntervalSince1970.truncatingRemainder(dividingBy: 1) * 1_000)))
            try await redis.restart()

            // Every one replayed: refused for having been issued before the new epoch.
            let again = try await kit.register(applicationId, spent.registration)
            #expect(again.problemCode == HoldfastErrorCode.issuedBeforeStoreReset.rawValue, "challenge: \(again.text)")
            let renewal = try await kit.call(device, TetheringRoutes.Template.license, proof: spent.renewalProof)
            #expect(renewal.status == .unauthorized && renewal.problemCode == HoldfastErrorCode.issuedBeforeStoreReset.rawValue,
                    "renewal DPoP: \(renewal.text)")
            let (_, code1) = try await wallet.offer()
            let tokenDPoP = try await Self.tokenRequest(wallet, endpoint: endpoints.token, code: code1, dpop: spent.tokenDPoP,
                                                        pop: try await Self.freshPoP(wallet))
            Self.expectRefusedAsBeforeReset(tokenDPoP, "invalid_dpop_proof", "token DPoP proof")
            let (_, code2) = try await wallet.offer()
            let tokenPoP = try await Self.tokenRequest(wallet, endpoint: endpoints.token, code: code2,
                                                       dpop: try DPoPProof.create(method: "POST", uri: endpoints.token,
                                                                                  key: JWSSigningKey(P256.Signing.PrivateKey()), issuedAt: Date()),
                                                       pop: spent.tokenPoP)
            Self.expectRefusedAsBeforeReset(tokenPoP, "invalid_client", "client attestation PoP")
            let oldNonce = try await wallet.credentialRequest(
                endpoint: endpoints.credential, accessToken: spent.accessToken, dpopKey: spent.credentialKey,
                proof: try IssuanceTestWallet.keyProof(key: P256.Signing.PrivateKey(), nonce: spent.keyProofNonce))
            Self.expectRefusedAsBeforeReset(oldNonce, "invalid_nonce", "c_nonce")
            let oldCredentialDPoP = try await Self.credentialRequest(
                wallet, endpoint: endpoints.credential, accessToken: spent.accessToken, dpop: spent.credentialDPoP,
                proof: try IssuanceTestWallet.keyProof(key: P256.Signing.PrivateKey(), nonce: try await wallet.nonce(endpoint: endpoints.nonce)))
            Self.expectRefusedAsBeforeReset(oldCredentialDPoP, "invalid_dpop_proof", "credential DPoP proof")
            let sca = try await SCAWalletTests.verify(kit, proof: spent.scaProof, method: "PUT", url: Self.scaURL, body: nil)
            #expect(!sca.valid && sca.code == SCAProofFailureCode.issuedBeforeStoreReset, "SCA proof: \(sca)")

            // Nothing was made of the replays: one instance each, the customer's wallet not locked.
            let instances = try await kit.admin(TetheringRoutes.Template.instances, ["applicationId": applicationId], .get).wire(InstancePage.self)
            #expect(instances.data.count == 2)

            // A flow begun after the restart works, each item once.
            let fresh = try ServerTestKit.registration(challenge: try await kit.challenge(applicationId), key: P256.Signing.PrivateKey())
            #expect(try await kit.register(applicationId, fresh).status == .created)
            #expect(try await kit.register(applicationId, fresh).problemCode == HoldfastErrorCode.invalidChallenge.rawValue)
            #expect(try await kit.call(device, TetheringRoutes.Template.license).status == .ok)
            let (_, code3) = try await wallet.offer()
            let dpopKey = P256.Signing.PrivateKey()
            let token = try wallet.accessToken(try await wallet.tokenRequest(endpoint: endpoints.token, code: code3, dpopKey: dpopKey))
            let credential = try await wallet.credentialRequest(
                endpoint: endpoints.credential, accessToken: token, dpopKey: dpopKey,
                proof: try IssuanceTestWallet.keyProof(key: P256.Signing.PrivateKey(), nonce: try await wallet.nonce(endpoint: endpoints.nonce)))
            #expect(credential.status == .ok, "fresh credential: \(credential.text)")
            let freshSCA = try SCAWalletTests.proof(walletId: walletId, key: walletKey, method: "PUT", url: Self.scaURL, body: nil, pattern: .none)
            #expect(try await SCAWalletTests.verify(kit, proof: freshSCA, method: "PUT", url: Self.scaURL, body: nil).valid)
            #expect(try await SCAWalletTests.verify(kit, proof: freshSCA, method: "PUT", url: Self.scaURL, body: nil).code
                    == SCAProofFailureCode.replayed)
        }
    }

    static func spendOneOfEachKind(_ kit: ServerTestKit, device: ServerTestKit.Device, applicationId: String,
                                   wallet: IssuanceTestWallet, endpoints: (token: String, nonce: String, credential: String),
                                   walletKey: P256.Signing.PrivateKey, walletId: String) async throws -> Spent {
        let registration = try ServerTestKit.registration(challenge: try await kit.challenge(applicationId), key: P256.Signing.PrivateKey())
        #expect(try await kit.register(applicationId, registration).status == .created)
        let renewal = TetheringRoutes.Template.license
        let renewalProof = try DPoPProof.create(method: "POST", uri: ServerTestKit.publicURL + device.path(renewal),
                                                key: JWSSigningKey(device.key), issuedAt: Date(), accessToken: device.licenseToken)
        #expect(try await kit.call(device, renewal, proof: renewalProof).status == .ok)
        #expect(try await kit.call(device, renewal, proof: renewalProof).problemCode == HoldfastErrorCode.invalidDPoPProof.rawValue)

        let (_, code) = try await wallet.offer()
        let dpopKey = P256.Signing.PrivateKey()
        let tokenDPoP = try DPoPProof.create(method: "POST", uri: endpoints.token, key: JWSSigningKey(dpopKey), issuedAt: Date())
        let tokenPoP = try await freshPoP(wallet)
        let accessToken = try wallet.accessToken(try await tokenRequest(wallet, endpoint: endpoints.token, code: code, dpop: tokenDPoP, pop: tokenPoP))
        let nonce = try await wallet.nonce(endpoint: endpoints.nonce)
        let credentialDPoP = try DPoPProof.create(method: "POST", uri: endpoints.credential, key: JWSSigningKey(dpopKey),
                                                  issuedAt: Date(), accessToken: accessToken)
        let issued = try await credentialRequest(wallet, endpoint: endpoints.credential, accessToken: accessToken, dpop: credentialDPoP,
                                                 proof: try IssuanceTestWallet.keyProof(key: P256.Signing.PrivateKey(), nonce: nonce))
        #expect(issued.status == .ok, "credential: \(issued.text)")

        let scaProof = try SCAWalletTests.proof(walletId: walletId, key: walletKey, method: "PUT", url: scaURL, body: nil, pattern: .none)
        #expect(try await SCAWalletTests.verify(kit, proof: scaProof, method: "PUT", url: scaURL, body: nil).valid)
        return Spent(registration: registration, renewalProof: renewalProof, tokenDPoP: tokenDPoP, tokenPoP: tokenPoP,
                     keyProofNonce: nonce, accessToken: accessToken, credentialKey: dpopKey, credentialDPoP: credentialDPoP,
                     scaProof: scaProof)
    }

    static func freshPoP(_ wallet: IssuanceTestWallet) async throws -> String {
        try await ClientAttestationPoP.create(audience: ServerTestKit.publicURL, signer: JWSSigningKey(wallet.device.key), issuedAt: Date())
    }

    /// A token request with exactly these `DPoP` and `OAuth-Client-Attestation-PoP` headers.
    static func tokenRequest(_ wallet: IssuanceTestWallet, endpoint: String, code: String, dpop: String, pop: String) async throws -> TestResponse {
        var headers = HTTPFields()
        headers[.contentType] = "application/x-www-form-urlencoded"
        headers[HTTPField.Name("OAuth-Client-Attestation")!] = wallet.walletAttestation
        headers[HTTPField.Name("OAuth-Client-Attestation-PoP")!] = pop
        headers[HTTPField.Name("DPoP")!] = dpop
        let form = "grant_type=urn%3Aietf%3Aparams%3Aoauth%3Agrant-type%3Apre-authorized_code&pre-authorized_code="
            + (code.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? code)
        return try await wallet.kit.client.execute(uri: IssuanceTestWallet.path(endpoint), method: .post, headers: headers,
                                                   body: ByteBuffer(string: form))
    }

    /// A credential request with exactly this `DPoP` header.
    static func credentialRequest(_ wallet: IssuanceTestWallet, endpoint: String, accessToken: String, dpop: String,
                                  proof: String) async throws -> TestResponse {
        var headers = HTTPFields()
        headers[.contentType] = "application/json"
        headers[.authorization] = "DPoP \(accessToken)"
        headers[HTTPField.Name("DPoP")!] = dpop
        let body = #"{"credential_configuration_id":"mdl","proofs":{"jwt":["\#(proof)"]}}"#
        return try await wallet.kit.client.execute(uri: IssuanceTestWallet.path(endpoint), method: .post, headers: headers,
                                                   body: ByteBuffer(string: body))
    }

    /// Refused with `error`, and for the store's reset — not for another fault of the request.
    static func expectRefusedAsBeforeReset(_ response: TestResponse, _ error: String, _ what: String,
                                           sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(IssuanceTestWallet.oauthError(response) == error, "\(what): \(response.status) \(response.text)",
                sourceLocation: sourceLocation)
        #expect(response.text.contains("lost its memory"), "\(what): \(response.text)", sourceLocation: sourceLocation)
    }

    // MARK: clocks

    /// The system's clock moved by `offset` seconds, as a node whose clock runs ahead or behind; `advance` moves it on.
    final class ShiftedClock: HoldfastClock {
        private let offset: Mutex<TimeInterval>

        init(_ offset: TimeInterval) { self.offset = Mutex(offset) }

        func now() -> Date { Date().addingTimeInterval(offset.withLock { $0 }) }

        func advance(by interval: TimeInterval) { offset.withLock { $0 += interval } }
    }

    /// Two tenants on one database and one Redis whose clocks differ by 30 s. The tenant whose clock is ahead spends
    /// a challenge; Redis then loses its memory and the tenant whose clock is behind is the first to notice. The
    /// epoch is Redis's own time, and an item is refused unless issued at least the clock-skew allowance after it:
    /// the spent challenge is refused on both — also when the ahead tenant's clock leads Redis's by the 30 s, which
    /// Redis's time alone would not catch. Without an allowance, Redis's time alone refuses it when the tenant that
    /// noticed runs behind (an epoch on its clock would not). Issued later than the allowance, a challenge works.
    @Test(arguments: [(ahead: 0.0, behind: -30.0, allowance: 60), (ahead: 30.0, behind: 0.0, allowance: 60),
                      (ahead: 0.0, behind: -30.0, allowance: 0)])
    func twoTenantsWhoseClocksDifferRefuseWhatWasSpentBeforeTheLoss(_ clocks: (ahead: Double, behind: Double, allowance: Int)) async throws {
        let redis = try await TestRedisServer()
        defer { Task { await redis.remove() } }
        let authority = try TestAttestationAuthority()
        let roots = try authority.roots
        try await StorageBackend.sqlite.withConfiguration { base in
            var configuration = base
            configuration.publicURL = ServerTestKit.publicURL
            configuration.tethering.appAttestTrustedRoots = roots
            configuration.tethering.androidTrustedRoots = roots
            configuration.ephemeral = .redis(url: redis.url)
            #expect(configuration.redisClockSkew == .seconds(60))
            configuration.redisClockSkew = .seconds(clocks.allowance)
            let shared = configuration
            // An epoch this Redis set ten minutes ago: the tenants' items are accepted from the start.
            try await redis.command("SET", "holdfast:store-epoch", String(Int64((Date().timeIntervalSince1970 - 600) * 1000)))
            try await redis.command("SET", "holdfast:store-epoch-run-id", try await redis.runID())
            let aheadClock = ShiftedClock(clocks.ahead), behindClock = ShiftedClock(clocks.behind)
            let (ahead, startup) = try await HoldfastApplication.build(configuration: shared, options: .init(logger: StorageBackend.quietLogger,
                                                                                                            clock: aheadClock))
            let (behind, _) = try await HoldfastApplication.build(configuration: shared, options: .init(logger: StorageBackend.quietLogger,
                                                                                                      clock: behindClock))
            let adminKey = try #require(startup.bootstrapAdminKey)
            try await ahead.test(.router) { aheadClient in
                try await behind.test(.router) { behindClient in
                    let onAhead = ServerTestKit(client: aheadClient, adminKey: adminKey, authority: authority, configuration: shared, clock: aheadClock)
                    let onBehind = ServerTestKit(client: behindClient, adminKey: adminKey, authority: authority, configuration: shared, clock: behindClock)
                    let applicationId = try #require(try await onAhead.createApplication(ServerTestKit.iosApplication()).id)
                    let spent = try ServerTestKit.registration(challenge: try await onAhead.challenge(applicationId), key: P256.Signing.PrivateKey())
                    #expect(try await onAhead.register(applicationId, spent).status == .created)

                    try await redis.command("FLUSHALL")
                    let onBehindReplay = try await onBehind.register(applicationId, spent)
                    #expect(onBehindReplay.problemCode == HoldfastErrorCode.issuedBeforeStoreReset.rawValue, "\(onBehindReplay.text)")
                    let onAheadReplay = try await onAhead.register(applicationId, spent)
                    #expect(onAheadReplay.problemCode == HoldfastErrorCode.issuedBeforeStoreReset.rawValue, "\(onAheadReplay.text)")
                    let instances = try await onAhead.admin(TetheringRoutes.Template.instances, ["applicationId": applicationId], .get)
                        .wire(InstancePage.self)
                    #expect(instances.data.count == 1)

                    // Issued more than the allowance after the new epoch (on Redis's clock), by the tenant whose clock
                    // is behind: accepted once.
                    aheadClock.advance(by: 91)
                    behindClock.advance(by: 91)
                    let fresh = try ServerTestKit.registration(challenge: try await onBehind.challenge(applicationId), key: P256.Signing.PrivateKey())
                    #expect(try await onBehind.register(applicationId, fresh).status == .created)
                    #expect(try await onAhead.register(applicationId, fresh).problemCode == HoldfastErrorCode.invalidChallenge.rawValue)
                }
            }
        }
    }

    // MARK: maxmemory-policy

    /// A Redis that may evict what single use rests on is refused at start with `INVALID_CONFIGURATION` naming the
    /// policy: every `allkeys-*` policy (the epoch may go) and every `volatile-*` one (the spent records have an
    /// expiry). `noeviction` starts.
    @Test(arguments: RedisEvictionPolicy.allCases)
    func aRedisThatMayEvictIsRefusedAtStart(_ policy: RedisEvictionPolicy) async throws {
        let redis = try await TestRedisServer(arguments: ["--maxmemory", "100mb", "--maxmemory-policy", policy.rawValue])
        defer { Task { await redis.remove() } }
        try await StorageBackend.sqlite.withConfiguration { base in
            var configuration = base
            configuration.ephemeral = .redis(url: redis.url)
            do {
                _ = try await HoldfastApplication.build(configuration: configuration, options: .init(logger: StorageBackend.quietLogger))
                #expect(policy == .noEviction, "\(policy) was accepted")
            } catch let error as ConfigurationError {
                #expect(policy != .noEviction, "\(error)")
                #expect(error.variable == "HOLDFAST_REDIS_URL")
                #expect(error.description.contains("maxmemory-policy is \(policy.rawValue)"), "\(error)")
                #expect(error.description.contains("set maxmemory-policy noeviction"), "\(error)")
            }
        }
    }

    /// Where `CONFIG GET` is not allowed (a managed Redis; here an ACL user without `CONFIG`), the tenant starts and
    /// logs a warning.
    @Test func aRedisThatDoesNotAllowConfigGetStartsWithAWarning() async throws {
        let redis = try await TestRedisServer(arguments: ["--maxmemory-policy", "allkeys-lru"])
        defer { Task { await redis.remove() } }
        try await redis.command("ACL", "SETUSER", "tenant", "on", ">secret", "~*", "+@all", "-config")
        let recorder = LogRecorder()
        try await StorageBackend.sqlite.withConfiguration { base in
            var configuration = base
            configuration.ephemeral = .redis(url: "redis://tenant:secret@127.0.0.1:\(redis.port)")
            _ = try await HoldfastApplication.build(configuration: configuration, options: .init(logger: recorder.logger))
        }
        #expect(recorder.events.contains("ephemeral.eviction_policy_unchecked"))
    }
}
