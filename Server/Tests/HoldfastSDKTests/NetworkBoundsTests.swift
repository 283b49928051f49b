import Foundation
import HoldfastProtocol
import StatusList
@testable import HoldfastSDK
import Testing
import TestSupport

/// Sends what the holder sends to https://verifier.example to a `LocalHTTPServer` instead, over plain HTTP through the
/// real `URLSessionTransport`; the tenant and the issuer stay scripted.
struct LocalVerifierRoute: HTTPTransport {
    let scripted: TenantAndIssuer
    let server: LocalHTTPServer
    let network: URLSessionTransport

    func send(_ request: TransportRequest) async throws -> TransportResponse {
        guard request.url.host == "verifier.example" else { return try await scripted.send(request) }
        var local = request
        var components = URLComponents(url: request.url, resolvingAgainstBaseURL: false) ?? URLComponents()
        components.scheme = "http"
        components.host = "127.0.0.1"
        components.port = server.port
        local.url = try #require(components.url)
        return try await network.send(local)
    }
}

/// docs/sdk.md "Holder: the wallet's network": no redirect followed, a body cut at its cap as it streams, one deadline,
/// with the SDK's real transport against a local server.
@Suite(.serialized) struct NetworkBoundsTests {
    let clock = ManualClock(Date(timeIntervalSince1970: 1_800_000_000))
    let storage = MemorySecureStorage()

    /// A holder with one claimed credential whose verifier (https://verifier.example) is `server`, the request object
    /// being the scripted verifier's.
    func rig(timeout: TimeInterval = 15, _ script: @escaping @Sendable (LocalHTTPServer.Request, _ requestObject: String) -> LocalHTTPServer.Reply)
        async throws -> (holder: MobileCredentialHolder, verifier: ScriptedVerifier, server: LocalHTTPServer, credentialId: String) {
        try await rigAndRoute(timeout: timeout, script).rig
    }

    func rigAndRoute(timeout: TimeInterval = 15, _ script: @escaping @Sendable (LocalHTTPServer.Request, _ requestObject: String) -> LocalHTTPServer.Reply)
        async throws -> (rig: (holder: MobileCredentialHolder, verifier: ScriptedVerifier, server: LocalHTTPServer, credentialId: String),
                         route: LocalVerifierRoute) {
        let tenant = FakeTenant(deviceClock: clock)
        let issuer = try FakeIssuer(clock: clock)
        let verifier = ScriptedVerifier(pki: try TestVerifierPKI(at: clock.now()), presentationProtocol: .openID4VP,
                                        issuerIACA: issuer.iaca, clock: clock)
        let requestObject = try await verifier.requestObject()
        let server = try LocalHTTPServer { script($0, requestObject) }
        let transport = LocalVerifierRoute(scripted: TenantAndIssuer(tenant: tenant, issuer: issuer, verifier: verifier), server: server,
                                           network: URLSessionTransport(timeout: timeout))
        let holder = MobileCredentialHolder(seams: PlatformSeams(secureStorage: storage, secureArea: SoftwareSecureArea(storage: storage),
                                                                 transport: transport, clock: clock, sleeper: RecordingSleeper(),
                                                                 jitter: { 1.0 }, tetheringScheduler: ManualTetheringScheduler()))
        try await holder.initialize(platformConfiguration: PlatformConfiguration(tenantHost: "tenant.test", applicationId: "app-1"))
        _ = try await holder.registerDevice()
        _ = try await holder.addTrustedIssuerCertificates([await issuer.iacaPEM])
        let claimed = try await holder.claimCredentials(offer: try await holder.retrieveCredentialOffer(uri: FakeIssuer.offerURI()))
        return ((holder, verifier, server, try #require(claimed.first).id), transport)
    }

    static let requestObjectReply: @Sendable (LocalHTTPServer.Request, String) -> LocalHTTPServer.Reply? = { request, object in
        request.path == "/request/1"
            ? .answer(status: 200, headers: ["Content-Type": "application/oauth-authz-req+jwt"], body: Data(object.utf8)) : nil
    }

    /// RFC 9110 §15.4.8 / §15.4.9: a client may send the body again to the new location on a 307 or 308; the
    /// wallet's response (the disclosed claims) goes to the response_uri the request object named, or nowhere.
    @Test(arguments: [307, 308])
    func aRedirectFromTheResponseURIIsANetworkErrorAndTheResponseIsPostedOnce(status: Int) async throws {
        let (holder, verifier, server, id) = try await rig { request, object in
            if let reply = Self.requestObjectReply(request, object) { return reply }
            switch request.path {
            case "/response":
                return .answer(status: status, headers: ["Location": "http://127.0.0.1:1/elsewhere"])
            case "/elsewhere":
                return .answer(status: 200, headers: ["Content-Type": "application/json"], body: Data(#"{"redirect_uri":"https://x.test/"}"#.utf8))
            default:
                return .answer(status: 404)
            }
        }
        defer { server.stop() }
        let session = try await holder.createOnlinePresentationSession(authorisationRequestUri: await verifier.authorizationRequestURI)
        let error = await holdfastError { try await session.sendResponse(credentialIds: [id]) }
        #expect(error?.code == .networkError)
        #expect(error?.message.contains("HTTP \(status)") == true && error?.message.contains("http://127.0.0.1:1/elsewhere") == true,
                "\(String(describing: error))")
        #expect(server.received.filter { $0.method == "POST" }.map(\.path) == ["/response"])
    }

    /// The same with a Location on this server, where a transport that followed the redirect would find an answer
    /// that looks right: the POST is still made once, to the response_uri only.
    @Test func aRedirectToAWorkingAnswerIsNotFollowed() async throws {
        let followed = Locked<Int>(0)
        let (holder, verifier, server, id) = try await rig { request, object in
            if let reply = Self.requestObjectReply(request, object) { return reply }
            switch request.path {
            case "/response":
                return .answer(status: 307, headers: ["Location": "/elsewhere"])
            case "/elsewhere":
                followed.withLock { $0 += 1 }
                return .answer(status: 200, headers: ["Content-Type": "application/json"], body: Data(#"{"redirect_uri":"https://x.test/"}"#.utf8))
            default:
                return .answer(status: 404)
            }
        }
        defer { server.stop() }
        let session = try await holder.createOnlinePresentationSession(authorisationRequestUri: await verifier.authorizationRequestURI)
        let error = await holdfastError { try await session.sendResponse(credentialIds: [id]) }
        #expect(error?.code == .networkError && error?.message.contains("/elsewhere") == true, "\(String(describing: error))")
        #expect(followed.withLock { $0 } == 0)
        #expect(server.received.map(\.path) == ["/request/1", "/response"])
    }

    @Test func aRedirectFromTheRequestURIIsANetworkError() async throws {
        let (holder, verifier, server, _) = try await rig { request, object in
            switch request.path {
            case "/request/1": .answer(status: 302, headers: ["Location": "/request/2"])
            case "/request/2": .answer(status: 200, headers: ["Content-Type": "application/oauth-authz-req+jwt"], body: Data(object.utf8))
            default: .answer(status: 404)
            }
        }
        defer { server.stop() }
        let error = await holdfastError {
            try await holder.createOnlinePresentationSession(authorisationRequestUri: await verifier.authorizationRequestURI)
        }
        #expect(error?.code == .networkError && error?.message.contains("HTTP 302") == true
                && error?.message.contains("/request/2") == true, "\(String(describing: error))")
        #expect(server.received.map(\.path) == ["/request/1"])
    }

    /// Set in the process `theMemoryOfAFiftyMegabyteRequestObjectIsMeasuredInAProcessOfItsOwn` starts.
    static let measureMemoryVariable = "HOLDFAST_TEST_MEASURE_RESIDENT_MEMORY"

    /// A 50 MB request object, made by the server as it sends it: the wallet stops reading at 1 MiB, and its memory
    /// does not grow by the body. Chunked, the cap is met while streaming; announced, at the `Content-Length`. The
    /// memory is the process's, so it is asserted in a process running this test alone (below), where no other test
    /// allocates meanwhile.
    @Test(arguments: [false, true])
    func aFiftyMegabyteRequestObjectIsCutAtOneMebibyte(announced: Bool) async throws {
        let ((holder, verifier, server, _), route) = try await rigAndRoute { request, _ in
            request.path == "/request/1" ? .generated(bytes: 50 << 20, announced: announced) : .answer(status: 204)
        }
        defer { server.stop() }
        // A first exchange on the same transport, so that what a first connection allocates is not counted.
        let warm = try await route.send(TransportRequest(method: "GET", url: try #require(URL(string: "https://verifier.example/warm"))))
        #expect(warm.status == 204)
        let before = try #require(residentBytes())
        let (error, peak) = await peakResidentBytes {
            await holdfastError {
                try await holder.createOnlinePresentationSession(authorisationRequestUri: await verifier.authorizationRequestURI)
            }
        }
        #expect(error?.code == .networkError && error?.message.contains("larger than 1048576 bytes") == true, "\(String(describing: error))")
        if ProcessInfo.processInfo.environment[Self.measureMemoryVariable] != nil {
            let grown = try #require(peak) - before
            #expect(grown < 8 << 20, "resident memory grew by \(grown) bytes; the server sent \(server.bytesGenerated)")
        }
    }

    #if os(Linux)
    /// Runs the test above in a process of its own (this test binary, filtered to it) that asserts its resident memory
    /// (`/proc/self/statm`) grew by less than 8 MiB while the 50 MB were refused.
    @Test func theMemoryOfAFiftyMegabyteRequestObjectIsMeasuredInAProcessOfItsOwn() async throws {
        guard ProcessInfo.processInfo.environment[Self.measureMemoryVariable] == nil else { return }
        let binary = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
        var environment = ProcessInfo.processInfo.environment
        environment[Self.measureMemoryVariable] = "1"
        let run = try await ChildProcess.run(executable: binary, arguments: [
            "--testing-library", "swift-testing", "--filter", "NetworkBoundsTests/aFiftyMegabyteRequestObjectIsCutAtOneMebibyte",
        ], environment: environment)
        let output = String(decoding: run.output + run.error, as: UTF8.self)
        #expect(run.status == 0, "\(output)")
        #expect(output.contains("aFiftyMegabyteRequestObjectIsCutAtOneMebibyte(announced:) with 2 test cases passed"), "\(output)")
    }
    #endif

    /// One deadline for the whole exchange: a server that trickles a byte every 200 ms is never idle for the idle
    /// timeout, and one that answers nothing at all, are both cut off at it (here 2 s; the trickle would end in 30 s
    /// with a body that is not a request object).
    @Test(arguments: [LocalHTTPServer.Reply.trickle(length: 150, interval: .milliseconds(200)), .silence(.seconds(30))])
    func aServerThatStallsMeetsTheDeadline(reply: LocalHTTPServer.Reply) async throws {
        let (holder, verifier, server, _) = try await rig(timeout: 2) { request, _ in
            request.path == "/request/1" ? reply : .answer(status: 404)
        }
        defer { server.stop() }
        let error = await holdfastError {
            try await holder.createOnlinePresentationSession(authorisationRequestUri: await verifier.authorizationRequestURI)
        }
        #expect(error?.code == .networkError, "\(String(describing: error))")
        #expect(error?.message.contains("deadline") == true || error?.message.contains("timed out") == true, "\(String(describing: error))")
    }
}

/// A transport that answers every request with `response`, recording the requests.
actor CannedTransport: HTTPTransport {
    let response: TransportResponse
    private(set) var requests: [TransportRequest] = []

    init(_ response: TransportResponse) { self.response = response }

    func send(_ request: TransportRequest) async throws -> TransportResponse {
        requests.append(request)
        return response
    }
}

/// What the SDK requires of every answer whatever the transport (`HTTPTransport.exchange`), and the cap each kind of
/// request carries.
@Suite struct TransportBoundsTests {
    let url = URL(string: "https://tenant.test/v1/x")!

    @Test func aRedirectIsAnErrorNamingItsLocationWhateverTheTransport() async throws {
        for status in [301, 302, 303, 307, 308] {
            let transport = CannedTransport(TransportResponse(status: status, headers: ["location": "https://elsewhere.test/y"]))
            do {
                _ = try await transport.exchange(TransportRequest(method: "POST", url: url, body: Data("a=b".utf8)))
                Issue.record("HTTP \(status) was taken as an answer")
            } catch let failure as URLSessionTransport.TransportFailure {
                #expect(failure.description.contains("HTTP \(status)") && failure.description.contains("https://elsewhere.test/y"))
            }
            #expect(await transport.requests.count == 1)
        }
        // Not a redirect: returned as it is.
        #expect(try await CannedTransport(TransportResponse(status: 404)).exchange(TransportRequest(method: "GET", url: url)).status == 404)
    }

    @Test func aBodyPastTheRequestsCapIsRefusedWhateverTheTransport() async throws {
        let cap = 1_000
        let atCap = CannedTransport(TransportResponse(status: 200, body: Data(count: cap)))
        #expect(try await atCap.exchange(TransportRequest(method: "GET", url: url, maximumResponseBytes: cap)).body.count == cap)
        let past = CannedTransport(TransportResponse(status: 200, body: Data(count: cap + 1)))
        do {
            _ = try await past.exchange(TransportRequest(method: "GET", url: url, maximumResponseBytes: cap))
            Issue.record("a body past the cap was taken")
        } catch let failure as URLSessionTransport.TransportFailure {
            #expect(failure.isTooLarge)
        }
    }

    /// A status list is read up to the status list cap (the largest token `SignedStatusListToken` takes for the
    /// cache's list cap), every other answer up to 1 MiB.
    @Test func aStatusListRequestCarriesTheStatusListCap() async throws {
        let endpoint = ScriptedStatusEndpoint()
        let cache = StatusListCache(storage: MemorySecureStorage(), transport: endpoint, clock: ManualClock(), maximumListBytes: 4 << 20)
        _ = await cache.refresh(TestStatusIssuer.uri, trust: StatusTrust(id: "t", anchors: []))
        let request = try #require(await endpoint.requests.first)
        #expect(request.maximumResponseBytes == SignedStatusListToken.maximumTokenBytes(maximumListBytes: 4 << 20))
        #expect(request.maximumResponseBytes == 8 << 20)
        #expect(TransportRequest(method: "GET", url: url).maximumResponseBytes == 1 << 20)
    }

    /// The tenant's calls go through the same check: a 307 from the tenant is NETWORK_ERROR naming the Location.
    @Test func aRedirectFromTheTenantIsANetworkError() async throws {
        let storage = MemorySecureStorage()
        let transport = CannedTransport(TransportResponse(status: 307, headers: ["Location": "https://elsewhere.test/challenges"]))
        let holder = MobileCredentialHolder(seams: PlatformSeams(secureStorage: storage, secureArea: SoftwareSecureArea(storage: storage),
                                                                 transport: transport, clock: ManualClock(), sleeper: RecordingSleeper(),
                                                                 jitter: { 1.0 }, tetheringScheduler: ManualTetheringScheduler()))
        try await holder.initialize(platformConfiguration: PlatformConfiguration(tenantHost: "tenant.test", applicationId: "app-1"))
        let error = await holdfastError { try await holder.registerDevice() }
        #expect(error?.code == .networkError && error?.message.contains("https://elsewhere.test/challenges") == true, "\(String(describing: error))")
        #expect(await transport.requests.allSatisfy { $0.url.host == "tenant.test" })
    }
}
