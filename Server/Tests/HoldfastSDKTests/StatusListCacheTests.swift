import COSE
import Crypto
import Foundation
import HoldfastProtocol
@testable import HoldfastSDK
import MDoc
import StatusList
import Testing
import X509

/// An issuer of status list tokens for the tests: an IACA, a status list signer under it, and a list it changes.
struct TestStatusIssuer: Sendable {
    static let uri = "https://issuer.example/v2/credentials/mobile/status-lists/1/token"
    let iacaKey = P256.Signing.PrivateKey()
    let signerKey = P256.Signing.PrivateKey()
    let iaca: Certificate
    let signerDER: [UInt8]

    init(validFrom start: Date) throws {
        iaca = try MDocCertificates.iaca(key: iacaKey, subject: try MDocCertificates.name(commonName: "Test IACA", country: "ZZ"),
                                         notBefore: start.addingTimeInterval(-86_400), notAfter: start.addingTimeInterval(365 * 86_400))
        let signer = try MDocCertificates.signer(publicKey: signerKey.publicKey,
                                                 subject: try MDocCertificates.name(commonName: "Test Status Signer", country: "ZZ"),
                                                 iaca: iaca, iacaKey: iacaKey, notBefore: start.addingTimeInterval(-3_600),
                                                 notAfter: start.addingTimeInterval(300 * 86_400),
                                                 extendedKeyUsage: [1, 3, 6, 1, 5, 5, 7, 3, 127])
        signerDER = try MDocCertificates.der(signer)
    }

    var trust: StatusTrust { StatusTrust(id: "test-iaca", anchors: [iaca]) }

    /// A CWT of a 2-bit list of 64 entries with `statuses` set.
    func token(_ statuses: [Int: UInt8] = [:], issuedAt: Date, ttl: UInt64? = 300, expiresIn: TimeInterval? = 3_600,
               subject: String = TestStatusIssuer.uri, signer: P256.Signing.PrivateKey? = nil) throws -> [UInt8] {
        var list = try StatusList(bits: 2, count: 64)
        for (index, value) in statuses { try list.setStatus(value, at: index) }
        let token = StatusListToken(subject: subject, issuedAt: issuedAt, expiresAt: expiresIn.map { issuedAt.addingTimeInterval($0) },
                                    timeToLive: ttl, list: list)
        return try token.cwt(signer: COSESigningKey.p256(signer ?? signerKey), certificateChain: [signerDER])
    }
}

/// The status list endpoint as the wallet sees it: answers the token it is given, or fails like a network with no
/// route; counts requests, and can hold each answer back a while (to let concurrent checks pile up).
actor ScriptedStatusEndpoint: HTTPTransport {
    var token: [UInt8]?
    var offline = false
    var delay: Duration = .zero
    private(set) var requests: [TransportRequest] = []

    func send(_ request: TransportRequest) async throws -> TransportResponse {
        requests.append(request)
        if delay > .zero { try await Task.sleep(for: delay) }
        if offline { throw URLError(.notConnectedToInternet) }
        guard let token else { return TransportResponse(status: 404) }
        return TransportResponse(status: 200, headers: ["Content-Type": StatusListToken.cwtType], body: Data(token))
    }

    func serve(_ token: [UInt8]?) { self.token = token }
    func setOffline(_ value: Bool) { offline = value }
    func setDelay(_ value: Duration) { delay = value }
    var count: Int { requests.count }
}

@Suite struct StatusListCacheTests {
    let clock = ManualClock()
    let endpoint = ScriptedStatusEndpoint()
    let storage = MemorySecureStorage()
    let issuer: TestStatusIssuer
    let reference = StatusReference(index: 5, uri: TestStatusIssuer.uri)

    init() throws {
        issuer = try TestStatusIssuer(validFrom: clock.now())
    }

    func cache() -> StatusListCache { StatusListCache(storage: storage, transport: endpoint, clock: clock) }

    @Test func aTokenYoungerThanItsTTLIsNotFetchedAgain() async throws {
        let cache = cache()
        await endpoint.serve(try issuer.token(issuedAt: clock.now(), ttl: 300))
        #expect(await cache.status(of: reference, trust: issuer.trust, online: true) == .valid)
        #expect(await endpoint.count == 1)
        let request = try #require(await endpoint.requests.first)
        #expect(request.method == "GET" && request.url.absoluteString == TestStatusIssuer.uri)
        #expect(request.header("Accept")?.hasPrefix("application/statuslist+cwt") == true)
        clock.advance(by: 299)
        #expect(await cache.status(of: reference, trust: issuer.trust, online: true) == .valid)
        #expect(await endpoint.count == 1)
    }

    @Test func aTokenOlderThanItsTTLIsFetchedAgainAndItsNewStatusApplies() async throws {
        let cache = cache()
        await endpoint.serve(try issuer.token(issuedAt: clock.now()))
        #expect(await cache.status(of: reference, trust: issuer.trust, online: true) == .valid)
        await endpoint.serve(try issuer.token([5: 1], issuedAt: clock.now().addingTimeInterval(10)))
        clock.advance(by: 300)
        #expect(await cache.status(of: reference, trust: issuer.trust, online: true) == .revoked)
        #expect(await endpoint.count == 2)
    }

    @Test func aFailedFetchFallsBackToTheCachedTokenUntilItsExp() async throws {
        let cache = cache()
        await endpoint.serve(try issuer.token([5: 2], issuedAt: clock.now(), ttl: 300, expiresIn: 3_600))
        #expect(await cache.status(of: reference, trust: issuer.trust, online: true) == .suspended)
        await endpoint.setOffline(true)
        clock.advance(by: 1_000)
        #expect(await cache.status(of: reference, trust: issuer.trust, online: true) == .suspended)
        #expect(await cache.lastFailure(uri: TestStatusIssuer.uri)?.contains("could not be fetched") == true)
        clock.advance(by: 2_600)  // exactly exp
        #expect(await cache.status(of: reference, trust: issuer.trust, online: true) == .unknown(.tokenExpired))
        #expect(await endpoint.count == 3)
        // Back online, a new token applies again.
        await endpoint.setOffline(false)
        await endpoint.serve(try issuer.token(issuedAt: clock.now()))
        #expect(await cache.status(of: reference, trust: issuer.trust, online: true) == .valid)
    }

    @Test func anErrorAnswerIsAFailedFetchToo() async throws {
        let cache = cache()
        #expect(await cache.status(of: reference, trust: issuer.trust, online: true) == .unknown(.noToken))
        #expect(await cache.lastFailure(uri: TestStatusIssuer.uri) == "the status list answered HTTP 404")
    }

    @Test func offlineChecksApplyTheCachedTokenWithTheSameExpRule() async throws {
        let cache = cache()
        #expect(await cache.status(of: reference, trust: issuer.trust, online: false) == .unknown(.noToken))
        #expect(await endpoint.count == 0)
        await endpoint.serve(try issuer.token([5: 1], issuedAt: clock.now(), ttl: 60, expiresIn: 600))
        #expect(await cache.status(of: reference, trust: issuer.trust, online: true) == .revoked)
        clock.advance(by: 599)
        #expect(await cache.status(of: reference, trust: issuer.trust, online: false) == .revoked)
        clock.advance(by: 1)
        #expect(await cache.status(of: reference, trust: issuer.trust, online: false) == .unknown(.tokenExpired))
        #expect(await endpoint.count == 1)
    }

    @Test func aNewTTLTakesEffectWithTheNextToken() async throws {
        let cache = cache()
        await endpoint.serve(try issuer.token(issuedAt: clock.now(), ttl: 100, expiresIn: 86_400))
        _ = await cache.status(of: reference, trust: issuer.trust, online: true)
        await endpoint.serve(try issuer.token(issuedAt: clock.now().addingTimeInterval(1), ttl: 1_000, expiresIn: 86_400))
        clock.advance(by: 99)
        _ = await cache.status(of: reference, trust: issuer.trust, online: true)
        #expect(await endpoint.count == 1)  // the cached token's ttl of 100 still holds
        clock.advance(by: 1)
        _ = await cache.status(of: reference, trust: issuer.trust, online: true)
        #expect(await endpoint.count == 2)
        clock.advance(by: 999)
        _ = await cache.status(of: reference, trust: issuer.trust, online: true)
        #expect(await endpoint.count == 2)  // now the new ttl of 1,000
        clock.advance(by: 1)
        _ = await cache.status(of: reference, trust: issuer.trust, online: true)
        #expect(await endpoint.count == 3)
    }

    @Test func aSuspendedCredentialBecomesValidAgain() async throws {
        let cache = cache()
        await endpoint.serve(try issuer.token([5: 2], issuedAt: clock.now()))
        #expect(await cache.status(of: reference, trust: issuer.trust, online: true) == .suspended)
        await endpoint.serve(try issuer.token(issuedAt: clock.now().addingTimeInterval(1)))
        clock.advance(by: 300)
        #expect(await cache.status(of: reference, trust: issuer.trust, online: true) == .valid)
    }

    @Test func aTokenThatDoesNotVerifyNeverEntersTheCache() async throws {
        let cache = cache()
        let start = clock.now()
        await endpoint.serve(try issuer.token(issuedAt: clock.now()))
        #expect(await cache.status(of: reference, trust: issuer.trust, online: true) == .valid)
        let refusals: [(String, [UInt8], String)] = [
            ("signed by another key", try issuer.token([5: 1], issuedAt: clock.now().addingTimeInterval(1), signer: P256.Signing.PrivateKey()),
             "refused"),
            ("another sub", try issuer.token([5: 1], issuedAt: clock.now().addingTimeInterval(1), subject: "https://issuer.example/other"),
             "refused"),
            ("older than the cached one", try issuer.token([5: 1], issuedAt: start.addingTimeInterval(-60)), "older"),
            ("not a token", Array("<html>maintenance</html>".utf8), "refused"),
        ]
        for (name, token, reason) in refusals {
            await endpoint.serve(token)
            clock.advance(by: 300)
            #expect(await cache.status(of: reference, trust: issuer.trust, online: true) == .valid, "\(name)")
            #expect(await cache.lastFailure(uri: TestStatusIssuer.uri)?.contains(reason) == true, "\(name)")
        }
        // Nor under a trust that the cached token does not chain to.
        let stranger = try TestStatusIssuer(validFrom: clock.now())
        #expect(await cache.status(of: reference, trust: StatusTrust(id: "stranger", anchors: [stranger.iaca]), online: false)
            == .unknown(.noToken))
    }

    @Test func twoCredentialsOnOneListShareOneFetch() async throws {
        let cache = cache()
        await endpoint.serve(try issuer.token([9: 1], issuedAt: clock.now()))
        #expect(await cache.status(of: reference, trust: issuer.trust, online: true) == .valid)
        #expect(await cache.status(of: StatusReference(index: 9, uri: TestStatusIssuer.uri), trust: issuer.trust, online: true) == .revoked)
        #expect(await cache.status(of: StatusReference(index: 64, uri: TestStatusIssuer.uri), trust: issuer.trust, online: true)
            == .unknown(.indexOutOfRange))
        #expect(await endpoint.count == 1)
    }

    @Test func concurrentChecksShareOneFetch() async throws {
        let cache = cache()
        await endpoint.serve(try issuer.token([3: 1], issuedAt: clock.now()))
        await endpoint.setDelay(.milliseconds(200))
        let statuses = await withTaskGroup(of: CredentialStatus.self) { group in
            for index in 0..<100 {
                group.addTask { await cache.status(of: StatusReference(index: UInt64(index % 8), uri: TestStatusIssuer.uri),
                                                   trust: issuer.trust, online: true) }
            }
            var all: [CredentialStatus] = []
            for await status in group { all.append(status) }
            return all
        }
        #expect(await endpoint.count == 1)
        #expect(statuses.filter { $0 == .revoked }.count == 100 / 8 + (100 % 8 > 3 ? 1 : 0))
        #expect(statuses.allSatisfy { $0 == .valid || $0 == .revoked })
    }

    @Test func theCacheSurvivesARestart() async throws {
        await endpoint.serve(try issuer.token([5: 1], issuedAt: clock.now(), ttl: 300, expiresIn: 3_600))
        #expect(await cache().status(of: reference, trust: issuer.trust, online: true) == .revoked)
        let restarted = cache()
        clock.advance(by: 100)
        #expect(await restarted.status(of: reference, trust: issuer.trust, online: true) == .revoked)
        #expect(await endpoint.count == 1)  // still within the ttl, counted from the first fetch
        // A tampered stored token is not used: it is re-verified on first use after the restart.
        for key in await storage.keys() where key.hasPrefix("holdfast.status-list.v1.") {
            var stored = try JSONDecoder().decode(StatusListCache.Stored.self, from: Data(try #require(try await storage.read(key))))
            stored.token = Data(try issuer.token(issuedAt: clock.now(), signer: P256.Signing.PrivateKey()))
            try await storage.write(key, value: [UInt8](try JSONEncoder().encode(stored)))
        }
        #expect(await cache().status(of: reference, trust: issuer.trust, online: false) == .unknown(.noToken))
    }

    @Test func onlyHTTPSOrLoopbackIsFetched() {
        #expect(StatusListCache.fetchableURL("https://issuer.example/list") != nil)
        #expect(StatusListCache.fetchableURL("http://127.0.0.1:8080/list") != nil)
        #expect(StatusListCache.fetchableURL("http://issuer.example/list") == nil)
        #expect(StatusListCache.fetchableURL("file:///etc/passwd") == nil)
    }
}
