import Attestation
import Foundation
import HoldfastProtocol
@testable import HoldfastServer
import Hummingbird
import HummingbirdTesting
import ServiceLifecycle
import Testing

/// Google's attestation status list on the server (DESIGN.md §2: "ship a snapshot, allow loading a newer one from a
/// file or URL, and reject chains containing a revoked serial"): `HOLDFAST_ANDROID_REVOCATION_LIST`.
@Suite struct AndroidRevocationListTests {
    static func statusJSON(_ serials: [String]) -> String {
        let entries = serials.map { #""\#($0)": {"status": "REVOKED", "reason": "KEY_COMPROMISE"}"# }
        return #"{"entries": {\#(entries.joined(separator: ", "))}}"#
    }

    /// The tests' servers are on loopback: `HOLDFAST_OUTBOUND_ALLOW_PRIVATE` on.
    static let loopback = OutboundConfiguration(allowsPrivateAddresses: true)

    static func temporaryFile(_ text: String) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("holdfast-status-\(UUID().uuidString).json").path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test func aFileIsLoadedAtStartAndReadAgainOnRefreshAndABadReadKeepsTheLastGoodList() async throws {
        let path = try Self.temporaryFile(Self.statusJSON(["abc1"]))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let revocations = try await AndroidRevocations.start(source: .file(path: path), refreshInterval: .seconds(60),
                                                             logger: StorageBackend.quietLogger)
        #expect(revocations.current.entries.keys.sorted() == ["abc1"])
        #expect(revocations.status.loadedAt != nil && revocations.status.lastFailure == nil)

        try Self.statusJSON(["abc1", "def2"]).write(toFile: path, atomically: true, encoding: .utf8)
        #expect(await revocations.refresh())
        #expect(revocations.current.entries.keys.sorted() == ["abc1", "def2"])

        try "not the status JSON".write(toFile: path, atomically: true, encoding: .utf8)
        #expect(await !revocations.refresh())
        #expect(revocations.current.entries.keys.sorted() == ["abc1", "def2"], "a failed refresh keeps the last good list")
        #expect(revocations.status.lastFailure != nil)
    }

    /// `loadedAt` is the server clock's time of the load, not the system's.
    @Test func theLoadTimeComesFromTheServerClock() async throws {
        let path = try Self.temporaryFile(Self.statusJSON(["abc1"]))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let clock = ManualClock(Date(timeIntervalSince1970: 1_800_000_000))
        let revocations = try await AndroidRevocations.start(source: .file(path: path), refreshInterval: .seconds(60),
                                                             clock: clock, logger: StorageBackend.quietLogger)
        #expect(revocations.status.loadedAt == Date(timeIntervalSince1970: 1_800_000_000))
        clock.advance(by: 60)
        #expect(await revocations.refresh())
        #expect(revocations.status.loadedAt == Date(timeIntervalSince1970: 1_800_000_060))
    }

    /// The refresher service reads the source again on its interval, and ends when the server shuts down. No
    /// wall-clock deadline inside: on a loaded machine the whole suite can stall the two cooperative threads for many
    /// seconds; the time limit is what fails a refresher that never refreshes.
    @Test(.timeLimit(.minutes(2)))
    func theRefresherPicksUpANewListAndStopsOnShutdown() async throws {
        let path = try Self.temporaryFile(Self.statusJSON(["aa"]))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let revocations = try await AndroidRevocations.start(source: .file(path: path), refreshInterval: .milliseconds(50),
                                                             logger: StorageBackend.quietLogger)
        let group = ServiceGroup(configuration: .init(services: [RevocationListRefresher(revocations: revocations)],
                                                      logger: StorageBackend.quietLogger))
        try await withThrowingTaskGroup(of: Void.self) { tasks in
            tasks.addTask { try await group.run() }
            try Self.statusJSON(["aa", "bb"]).write(toFile: path, atomically: true, encoding: .utf8)
            while revocations.current.entries.count != 2 { try await Task.sleep(for: .milliseconds(20)) }
            #expect(revocations.current.entries.keys.sorted() == ["aa", "bb"])
            await group.triggerGracefulShutdown()
            try await tasks.waitForAll()
        }
    }

    /// With the bundled snapshot the refresher has nothing to do, and waits for the shutdown like any service.
    @Test func theBundledSnapshotNeedsNoRefreshAndItsRefresherWaitsForShutdown() async throws {
        let revocations = try await AndroidRevocations.start(source: .bundled, refreshInterval: .seconds(60),
                                                             logger: StorageBackend.quietLogger)
        #expect(revocations.current == AttestationRevocationList.bundledSnapshot)
        #expect(await revocations.refresh())
        let group = ServiceGroup(configuration: .init(services: [RevocationListRefresher(revocations: revocations)],
                                                      logger: StorageBackend.quietLogger))
        try await withThrowingTaskGroup(of: Void.self) { tasks in
            tasks.addTask { try await group.run() }
            try await Task.sleep(for: .milliseconds(100))
            await group.triggerGracefulShutdown()
            try await tasks.waitForAll()
        }
    }

    /// A named file that cannot be read is a configuration error: the server does not start on the snapshot.
    @Test func aMissingFileStopsTheServerFromStarting() async throws {
        let missing = "/nonexistent-\(UUID().uuidString)/status.json"
        await #expect(throws: ConfigurationError.self) {
            _ = try await AndroidRevocations.start(source: .file(path: missing), refreshInterval: .seconds(60),
                                                   logger: StorageBackend.quietLogger)
        }
        try await StorageBackend.sqlite.withConfiguration { base in
            var configuration = base
            configuration.tethering.androidRevocationList = .file(path: missing)
            await #expect(throws: ConfigurationError.self) {
                _ = try await HoldfastApplication.build(configuration: configuration, options: .init(logger: StorageBackend.quietLogger))
            }
        }
    }

    /// Over HTTP from a server on loopback: fetched at start, fetched again on refresh; an error answer keeps the last
    /// good list; an unreachable URL at start leaves the bundled snapshot in force (and says why).
    @Test func aURLIsFetchedAndRefreshedAndFailuresKeepTheLastGoodList() async throws {
        let served = ServedStatus(body: Self.statusJSON(["123"]))
        let router = Router()
        router.get("/attestation/status") { _, _ in served.response() }
        let application = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)))
        try await application.test(.live) { client in
            let port = try #require(client.port)
            let url = try #require(URL(string: "http://127.0.0.1:\(port)/attestation/status"))
            let revocations = try await AndroidRevocations.start(source: .url(url), refreshInterval: .seconds(60),
                                                                 outbound: Self.loopback, logger: StorageBackend.quietLogger)
            #expect(revocations.current.entries.keys.sorted() == ["123"])

            served.set(body: Self.statusJSON(["123", "456"]))
            #expect(await revocations.refresh())
            #expect(revocations.current.entries.keys.sorted() == ["123", "456"])

            served.set(status: .serviceUnavailable)
            #expect(await !revocations.refresh())
            #expect(revocations.current.entries.count == 2)
            #expect(revocations.status.lastFailure?.contains("503") == true)

            let wrongPath = try #require(URL(string: "http://127.0.0.1:\(port)/elsewhere"))
            await #expect(throws: RevocationListLoader.Failure.self) { try await RevocationListLoader.load(.url(wrongPath), allowsPrivateAddresses: true) }

            // With private addresses not allowed (the default), the loopback server is never asked.
            let before = served.requests
            let refused = try await AndroidRevocations.start(source: .url(url), refreshInterval: .seconds(60),
                                                             logger: StorageBackend.quietLogger)
            #expect(refused.current == AttestationRevocationList.bundledSnapshot)
            #expect(refused.status.lastFailure?.contains("address_refused") == true, "\(refused.status.lastFailure ?? "")")
            #expect(served.requests == before)
        }

        let unreachable = try #require(URL(string: "http://127.0.0.1:1/attestation/status"))
        let revocations = try await AndroidRevocations.start(source: .url(unreachable), refreshInterval: .seconds(60),
                                                             outbound: Self.loopback, logger: StorageBackend.quietLogger)
        #expect(revocations.current == AttestationRevocationList.bundledSnapshot)
        #expect(revocations.status.lastFailure != nil && revocations.status.loadedAt == nil)

        // Credentials in the URL never reach a message (they are logged).
        let withSecrets = try #require(URL(string: "http://holdfast:s3cret-pw@127.0.0.1:1/attestation/status?token=t0ken"))
        do {
            _ = try await RevocationListLoader.load(.url(withSecrets), allowsPrivateAddresses: true)
            Issue.record("an unreachable URL loaded")
        } catch {
            #expect(!error.description.contains("s3cret-pw") && !error.description.contains("t0ken"), "\(error)")
            #expect(error.description.contains("127.0.0.1:1/attestation/status"))
        }
    }

    /// The list the server was started with is the one registration checks: a chain whose intermediate is listed is
    /// refused with the step that failed named, and the same chain passes with a list that does not name it.
    @Test(arguments: [true, false])
    func registrationChecksTheConfiguredList(_ listed: Bool) async throws {
        let authority = try TestAttestationAuthority()
        let serial = try AttestationCertificate(derEncoded: authority.intermediateDER).serialNumberHex
        let path = try Self.temporaryFile(Self.statusJSON(listed ? ["1234", serial] : ["1234"]))
        defer { try? FileManager.default.removeItem(atPath: path) }
        try await ServerTestKit.run(.sqlite, authority: authority,
                                       configure: { $0.tethering.androidRevocationList = .file(path: path) }) { kit in
            let id = try #require(try await kit.createApplication(ServerTestKit.androidApplication()).id)
            let response = try await kit.registerWithAndroidAttestation(id)
            let health = try await kit.client.execute(uri: "/health", method: .get).decode(HealthStatus.self)
            #expect(health.androidRevocationList.source == "file")
            #expect(health.androidRevocationList.entries == (listed ? 2 : 1))
            #expect(health.androidRevocationList.loadedAt != nil && !health.androidRevocationList.stale)
            #expect(!(try await kit.client.execute(uri: "/health", method: .get).text.contains(path)),
                    "the file path is not published")
            if listed {
                #expect(response.status == .forbidden || response.status == .badRequest, "\(response.text)")
                #expect(response.problemCode == "ATTESTATION_FAILED")
                #expect(response.text.contains("REVOKED") || response.text.contains("status list"), "\(response.text)")
            } else {
                #expect(response.status == .created, "\(response.text)")
            }
        }
    }
}

/// What the loopback status-list server answers; changed by the test between fetches.
///
/// `@unchecked Sendable`: the state is read and written under `lock` only.
private final class ServedStatus: @unchecked Sendable {
    private let lock = NSLock()
    private var body: String
    private var status: HTTPResponse.Status = .ok
    private var answered = 0

    init(body: String) {
        self.body = body
    }

    func set(body: String) { lock.withLock { self.body = body; status = .ok } }

    func set(status: HTTPResponse.Status) { lock.withLock { self.status = status } }

    var requests: Int { lock.withLock { answered } }

    func response() -> Response {
        lock.lock()
        answered += 1
        let currentStatus = status, currentBody = body
        lock.unlock()
        return Response(status: currentStatus, headers: [.contentType: "application/json"],
                        body: ResponseBody(byteBuffer: ByteBuffer(string: currentBody)))
    }
}
