import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import HoldfastServer
import Logging
import ServerTestSupport
import Testing
import TestSupport

/// docs/operations.md "Configuration" `HOLDFAST_DATABASE_QUERY_TIMEOUT_SECS`: no request waits for ever on a database that went
/// away. A tenant on a PostgreSQL server of the test's own serves admin requests from several clients while the
/// test kills the tenant's backends, crashes the server (`pg_ctl stop -m immediate`) and starts it again: every
/// request is answered (200, or 503 `DATABASE_UNAVAILABLE`) within the deadline plus a second, the tenant serves
/// again afterwards, and it holds no more connections than its pool's.
@Suite(.serialized) struct DatabaseFaultEndToEndTests {
    /// Short enough to test, long enough that a query of a tenant started beside the rest of the suite on a small
    /// machine is not cut while nothing is at fault.
    static let queryTimeout = Duration.seconds(4)

    struct Answer: Sendable {
        let status: Int
        let took: Duration
        let body: String
    }

    static func get(_ url: URL, key: String) async -> Answer {
        var request = URLRequest(url: url)
        request.setValue("Bearer \(key)", forHTTPHeaderField: "Authorization")
        // Far beyond the deadline: only the server's own deadline may end the wait.
        request.timeoutInterval = 120
        let started = ContinuousClock.now
        do {
            let (data, response) = try await URLSession.shared.data(for: request)
            return Answer(status: (response as? HTTPURLResponse)?.statusCode ?? -1, took: ContinuousClock.now - started,
                          body: String(decoding: data, as: UTF8.self))
        } catch {
            return Answer(status: -1, took: ContinuousClock.now - started, body: "\(error)")
        }
    }

    /// Whether `url` is answered 200 within 30 s of asking again.
    static func servesAgain(_ url: URL, key: String) async -> Bool {
        for _ in 0..<120 {
            if await get(url, key: key).status == 200 { return true }
            try? await Task.sleep(for: .milliseconds(250))
        }
        return false
    }

    @Test(.enabled(if: PrivatePostgres.isAvailable, "PostgreSQL is not installed"))
    func everyRequestIsAnsweredWithinTheDeadlineWhileTheDatabaseGoesAway() async throws {
        let postgres = try await PrivatePostgres.start()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("holdfast-fault-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        var configuration = HoldfastConfiguration(dataDirectory: folder.path)
        configuration.port = 0
        configuration.logLevel = .critical
        configuration.rateLimit = .off
        configuration.database = .postgres(url: postgres.url)
        configuration.connections.databaseQueryTimeout = Self.queryTimeout
        configuration.connections.databaseWaitTimeout = .seconds(30)
        // A tenant starting beside the rest of the suite may find its first connection slow: start it with a generous
        // deadline on the database's first use by migrating it first (`holdfast migrate` has no query deadline).
        do {
            var migration = configuration
            migration.connections.databaseQueryTimeout = .seconds(120)
            _ = try await HoldfastApplication.migrate(configuration: migration, now: Date(), logger: EndToEndBackend.quietLogger)
            try await HoldfastApplication.withRunningServer(configuration: configuration, logger: EndToEndBackend.quietLogger) { server in
                let key = try #require(server.startup.bootstrapAdminKey)
                let url = try #require(URL(string: server.baseURL + "/v1/holder/applications"))
                #expect(await Self.servesAgain(url, key: key))

                let answers = Locked<[Answer]>([])
                let (stop, stopSignal) = AsyncStream<Void>.makeStream()
                let stopped = Locked(false)
                try await withThrowingTaskGroup(of: Void.self) { group in
                    for _ in 0..<6 {
                        group.addTask {
                            while !stopped.withLock({ $0 }) {
                                let answer = await Self.get(url, key: key)
                                answers.withLock { $0.append(answer) }
                            }
                        }
                    }
                    group.addTask {
                        try await Task.sleep(for: .milliseconds(500))
                        // The tenant's backends killed under load, then a crash and a start while requests are in flight.
                        try await postgres.superuser("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name LIKE 'holdfast-%'")
                        try await Task.sleep(for: .milliseconds(500))
                        try await postgres.stop(immediate: true)
                        try await Task.sleep(for: .seconds(2))
                        try await postgres.start()
                        try await Task.sleep(for: .seconds(1))
                        stopped.withLock { $0 = true }
                        stopSignal.finish()
                    }
                    for await _ in stop {}
                    try await group.waitForAll()
                }

                let all = answers.withLock { $0 }
                #expect(all.count > 6)
                for answer in all {
                    #expect(answer.status == 200 || answer.status == 503, "\(answer.status) \(answer.body)")
                    if answer.status == 503 { #expect(answer.body.contains("DATABASE_UNAVAILABLE"), "\(answer.body)") }
                    #expect(answer.took <= Self.queryTimeout + .seconds(1), "a request took \(answer.took): \(answer.status) \(answer.body)")
                }
                #expect(all.contains { $0.status == 503 }, "the faults were not seen by any request")

                // The pool serves again, and holds no more connections than it may open.
                #expect(await Self.servesAgain(url, key: key))
                let counted = try await postgres.superuser(
                    "SELECT count(*) FROM pg_stat_activity WHERE application_name LIKE 'holdfast-%'")
                let connections = try #require(Int(counted.trimmingCharacters(in: .whitespacesAndNewlines)))
                let poolSize = HoldfastDatabase.postgresConnectionsPerEventLoop * ProcessInfo.processInfo.activeProcessorCount
                #expect(connections <= poolSize, "\(connections) connections, the pool opens at most \(poolSize)")
            }
        } catch {
            await postgres.destroy()
            throw error
        }
        await postgres.destroy()
    }

    /// A query queued on a lock past the query deadline is answered 503 `DATABASE_UNAVAILABLE` with `Retry-After`
    /// within the deadline plus a second; PostgreSQL gives the statement up too (its `statement_timeout`), so no
    /// backend of the tenant is left waiting; the request changed nothing.
    @Test(.enabled(if: TestEnvironment.postgresURL != nil, "PostgreSQL variant skipped: HOLDFAST_TEST_POSTGRES_URL is not set"))
    func aQueryQueuedOnALockIsAnsweredAtTheDeadline() async throws {
        try await EndToEndBackend.postgresql.withTenant(configure: { $0.connections.databaseQueryTimeout = Self.queryTimeout }) { tenant in
            let databaseURL = try #require(tenant.databaseURL)
            var quiet = Logger(label: "holdfast.test.lock")
            quiet.logLevel = .critical
            let database = try HoldfastDatabase.open(.postgres(url: databaseURL), logger: quiet, queryTimeout: .seconds(60))
            let (locked, lockedSignal) = AsyncStream<Void>.makeStream()
            let (release, releaseSignal) = AsyncStream<Void>.makeStream()
            let holder = Task {
                try await database.transaction { session in
                    try await session.raw("LOCK TABLE holder_applications IN ACCESS EXCLUSIVE MODE").run()
                    lockedSignal.yield()
                    for await _ in release { break }
                }
            }
            for await _ in locked { break }
            let url = try #require(URL(string: tenant.baseURL + "/v1/holder/applications"))
            let answer = await Self.get(url, key: tenant.admin.adminKey)
            #expect(answer.status == 503, "\(answer.body)")
            #expect(answer.body.contains("DATABASE_UNAVAILABLE"), "\(answer.body)")
            #expect(answer.took <= Self.queryTimeout + .seconds(1), "took \(answer.took)")
            // The tenant's statement gave up at PostgreSQL as well: nothing of it waits on the lock any more.
            var waiting = 1
            for _ in 0..<40 where waiting > 0 {
                let row = try await database.sql.raw("""
                    SELECT count(*) AS n FROM pg_locks WHERE NOT granted
                    AND database = (SELECT oid FROM pg_database WHERE datname = current_database())
                    """).first()
                waiting = try #require(row).decode(column: "n", as: Int.self)
                if waiting > 0 { try await Task.sleep(for: .milliseconds(100)) }
            }
            #expect(waiting == 0, "a backend still waits on the lock after the deadline")
            releaseSignal.finish()
            try await holder.value
            await database.close()
            // And the pool serves again.
            #expect(await Self.get(url, key: tenant.admin.adminKey).status == 200)
        }
    }
}
