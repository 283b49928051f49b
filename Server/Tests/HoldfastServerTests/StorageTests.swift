import Foundation
@testable import HoldfastServer
import PostgresKit
import SQLKit
import Testing
import ServerTestSupport
import TestSupport

/// Versioned migrations (`schema_migrations`) and start-up races, on SQLite and PostgreSQL.
@Suite struct StorageTests {
    /// The PostgreSQL variants of every storage test run only when this one does.
    @Test(.enabled(if: TestEnvironment.postgresURL != nil,
                   "PostgreSQL variants skipped: HOLDFAST_TEST_POSTGRES_URL is not set"))
    func postgreSQLServerIsReachable() async throws {
        let database = try HoldfastDatabase.open(.postgres(url: try #require(TestEnvironment.postgresURL)),
                                                 logger: StorageBackend.quietLogger, queryTimeout: StorageBackend.testQueryTimeout)
        do {
            try await database.ping()
            #expect(database.dialect == .postgresql)
        } catch {
            await database.close()
            throw error
        }
        await database.close()
    }

    @Test(arguments: StorageBackend.available)
    func migrationsAreIdempotent(_ backend: StorageBackend) async throws {
        try await backend.withConfiguration { configuration in
            let now = Date(timeIntervalSince1970: 1_795_424_733.125)
            let first = try await HoldfastApplication.migrate(configuration: configuration, now: now, logger: StorageBackend.quietLogger)
            #expect(first.map(\.version) == HoldfastMigrations.all.map(\.version).sorted())
            let second = try await HoldfastApplication.migrate(configuration: configuration, now: now.addingTimeInterval(60),
                                                               logger: StorageBackend.quietLogger)
            #expect(second.isEmpty)
            try await StorageBackend.withDatabase(configuration.database) { database in
                let rows = try await database.sql.select().column("*").from("schema_migrations").orderBy("version").all()
                #expect(try rows.map { try $0.decode(column: "name", as: String.self) } == HoldfastMigrations.all.map(\.name))
                #expect(try rows.allSatisfy { try $0.decode(column: "applied_at", as: Int64.self) > 0 })
                // Recorded at the time the caller gives (the server's clock), not the machine's.
                #expect(try rows.allSatisfy { try $0.decode(column: "applied_at", as: Int64.self) == 1_795_424_733_125 })
            }
        }
    }

    @Test(arguments: StorageBackend.available)
    func aLaterMigrationIsAppliedOnTopOfAnExistingSchema(_ backend: StorageBackend) async throws {
        try await backend.withConfiguration { configuration in
            _ = try await HoldfastApplication.migrate(configuration: configuration, now: Date(), logger: StorageBackend.quietLogger)
            try await StorageBackend.withDatabase(configuration.database) { database in
                let extra = Migration(version: 9_999, name: "create test_widgets",
                                      sqlite: ["CREATE TABLE test_widgets (id TEXT PRIMARY KEY, payload BLOB)"],
                                      postgresql: ["CREATE TABLE test_widgets (id TEXT PRIMARY KEY, payload BYTEA)"])
                let migrator = try Migrator(migrations: HoldfastMigrations.all + [extra])
                let dialect = database.dialect
                let applied = try await database.withStartupLock { session in
                    try await migrator.migrate(session, dialect: dialect, now: Date(), logger: StorageBackend.quietLogger)
                }
                #expect(applied.map(\.version) == [9_999])
                try await database.sql.insert(into: "test_widgets").columns("id", "payload")
                    .values(SQLBind("w"), SQLBind(Data([1, 2, 3]))).run()
            }
        }
    }

    @Test func failingMigrationLeavesNoRecordAndNoPartialSchema() async throws {
        try await StorageBackend.sqlite.withConfiguration { configuration in
            try await StorageBackend.withDatabase(configuration.database) { database in
                let broken = Migration(version: 1, name: "broken", sql: ["CREATE TABLE half (id TEXT)", "NOT SQL AT ALL"])
                let migrator = try Migrator(migrations: [broken])
                await #expect(throws: (any Error).self) {
                    try await database.withStartupLock { session in
                        try await migrator.migrate(session, dialect: .sqlite, now: Date(), logger: StorageBackend.quietLogger)
                    }
                }
                #expect(try await Migrator.appliedVersions(database.sql).isEmpty)
                await #expect(throws: (any Error).self) { try await database.sql.raw("SELECT * FROM half").run() }
            }
        }
    }

    @Test func duplicateMigrationVersionsAreRefused() throws {
        #expect(throws: StorageError.self) {
            try Migrator(migrations: [Migration(version: 1, name: "a", sql: []), Migration(version: 1, name: "b", sql: [])])
        }
    }

    @Test(arguments: StorageBackend.available)
    func twoNodesStartingAtOnceCreateOneBootstrapKeyAndOneTenantKey(_ backend: StorageBackend) async throws {
        try await backend.withConfiguration { configuration in
            var shared = configuration
            shared.masterKey = .provided(Array(repeating: 7, count: 32))
            async let a = TestServices.startup(shared)
            async let b = TestServices.startup(shared)
            let (first, second) = try await (a, b)
            #expect([first.bootstrapAdminKey, second.bootstrapAdminKey].compactMap { $0 }.count == 1)
            #expect(first.tenantKeyID == second.tenantKeyID)
            try await StorageBackend.withDatabase(shared.database) { database in
                let keys = try await database.sql.select().column("kid").from("tenant_keys").all()
                #expect(keys.count == 1)
            }
        }
    }

    /// A pool without a free connection in time, or shut down, is `503 DATABASE_UNAVAILABLE`, not a 500.
    @Test func aBusyOrClosedPoolIsDatabaseUnavailable() {
        for error in [ConnectionPoolTimeoutError.connectionRequestTimeout as any Error, ConnectionPoolError.shutdown] {
            let storage = StorageError.unavailable(from: error)
            #expect(storage?.problemStatus == .serviceUnavailable, "\(error)")
            #expect(storage?.problemCode == .databaseUnavailable)
            #expect(storage?.problemHeaders[.retryAfter] != nil)
        }
        #expect(StorageError.unavailable(from: CancellationError()) == nil)
    }

    /// PostgreSQL starting up or shutting down (SQLSTATE 57P03 cannot_connect_now, 57P01 admin_shutdown, 57P02
    /// crash_shutdown) will answer again soon: `503 DATABASE_UNAVAILABLE`; other class-57 states will not.
    @Test func aServerStartingOrStoppingIsUnavailable() {
        for state in ["57P01", "57P02", "57P03"] { #expect(StorageError.isStartingOrStopping(sqlState: state), "\(state)") }
        for state in ["57P04", "57014", "23505", "", nil] as [String?] { #expect(!StorageError.isStartingOrStopping(sqlState: state)) }
    }

    /// A query cut by a server's stop — `pg_terminate_backend` ends it with 57P01 admin_shutdown, as a fast shutdown
    /// does — is `503 DATABASE_UNAVAILABLE` with `Retry-After`, not a 500.
    @Test(.enabled(if: TestEnvironment.postgresURL != nil, "PostgreSQL variant skipped: HOLDFAST_TEST_POSTGRES_URL is not set"))
    func aQueryCutByAServerStopIsDatabaseUnavailable() async throws {
        let baseURL = try #require(TestEnvironment.postgresURL)
        try await PostgresTestDatabase.with(baseURL: baseURL) { url in
            try await StorageBackend.withDatabase(.postgres(url: url)) { database in
                try await StorageBackend.withDatabase(.postgres(url: url)) { observer in
                    async let cut: (any Error)? = {
                        do { try await database.sql.raw("SELECT pg_sleep(60) AS cut_by_a_stop").run(); return nil } catch { return error }
                    }()
                    var terminated = 0
                    for _ in 0..<600 where terminated == 0 {
                        let row = try await observer.sql.raw("""
                            SELECT count(pg_terminate_backend(pid)) AS n FROM pg_stat_activity
                            WHERE query LIKE 'SELECT pg_sleep(60) AS cut_by_a_stop%' AND state = 'active'
                            """).first()
                        terminated = try #require(row).decode(column: "n", as: Int.self)
                        if terminated == 0 { try await Task.sleep(for: .milliseconds(50)) }
                    }
                    #expect(terminated == 1)
                    let error = try #require(await cut)
                    #expect((error as? PSQLError)?.code == .server && (error as? PSQLError)?.serverInfo?[.sqlState] == "57P01", "\(String(reflecting: error))")
                    let storage = StorageError.unavailable(from: error)
                    #expect(storage?.problemStatus == .serviceUnavailable && storage?.problemCode == .databaseUnavailable)
                    #expect(storage?.problemHeaders[.retryAfter] != nil)
                }
            }
        }
    }

    /// A database dropped without `close()` closes itself: its PostgreSQL connections go away (and a debug build does
    /// not stop on AsyncKit's "shutdown() was not called" assertion).
    @Test(.enabled(if: TestEnvironment.postgresURL != nil, "PostgreSQL variant skipped: HOLDFAST_TEST_POSTGRES_URL is not set"))
    func aDatabaseDroppedWithoutCloseClosesItsConnections() async throws {
        let baseURL = try #require(TestEnvironment.postgresURL)
        try await PostgresTestDatabase.with(baseURL: baseURL) { url in
            let name = try #require(URLComponents(string: url)?.path.dropFirst()).description
            func connections(_ observer: HoldfastDatabase) async throws -> Int {
                let row = try await observer.sql.raw("SELECT count(*) AS n FROM pg_stat_activity WHERE datname = \(bind: name)").first()
                return try #require(row).decode(column: "n", as: Int.self)
            }
            func openAndForget() async throws {
                let forgotten = try HoldfastDatabase.open(.postgres(url: url), logger: StorageBackend.quietLogger)
                try await forgotten.ping()
            }
            try await StorageBackend.withDatabase(.postgres(url: baseURL)) { observer in
                try await openAndForget()
                var open = try await connections(observer)
                for _ in 0..<100 where open > 0 {
                    try await Task.sleep(for: .milliseconds(100))
                    open = try await connections(observer)
                }
                #expect(open == 0, "the forgotten database still holds \(open) connection(s)")
            }
        }
    }

    @Test func aFileSQLiteCannotOpenIsAStorageError() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("holdfast-sqlite-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        // A directory where the database file should be.
        let path = folder.appendingPathComponent("dir.sqlite")
        try FileManager.default.createDirectory(at: path, withIntermediateDirectories: true)
        #expect(throws: StorageError.self) {
            _ = try HoldfastDatabase.open(.sqlite(path: path.path), logger: StorageBackend.quietLogger)
        }
    }
}
