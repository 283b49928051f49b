import Foundation
import Logging
import Plumbing
import PostgresKit
import SQLiteStorage
import Synchronization

/// The tenant's SQL database (DESIGN.md §4 "Storage"): SQLite (a file in the data folder, the embedded default)
/// or PostgreSQL, both behind sql-kit's `SQLDatabase`. Capabilities write portable SQL through `sql`, and use
/// `dialect` only where the two differ (column types in migrations).
public struct HoldfastDatabase: Sendable {
    public enum Dialect: String, Sendable {
        case sqlite
        case postgresql
    }

    /// The pooled database; every query borrows a connection. On PostgreSQL each query and each session has the
    /// query deadline (`PostgresDeadlineDatabase`).
    public let sql: any SQLDatabase
    public let dialect: Dialect
    /// Where it is, without a password (for logs, `/health`, start-up).
    public let location: String
    private let lifetime: DatabaseLifetime
    /// The pool without the query deadline, for the start-up lock: a node may wait there while another migrates.
    private let startupSQL: any SQLDatabase
    /// Asks PostgreSQL to cancel this node's queries still running (nothing on SQLite).
    private let cancelQueries: @Sendable () async -> Void

    /// How many PostgreSQL connections each event loop may open (SQLite: see `SQLiteFile`).
    public static let postgresConnectionsPerEventLoop = 8

    /// One connection's database inside a session or a transaction: what a migration's row step and a store's
    /// transaction write through (the SQL itself stays in the stores and migrations).
    public typealias Session = any SQLDatabase

    /// The default of `HOLDFAST_DATABASE_QUERY_TIMEOUT_SECS`.
    public static let defaultQueryTimeout = Duration.seconds(10)

    init(sql: any SQLDatabase, dialect: Dialect, location: String, lifetime: DatabaseLifetime,
         startupSQL: (any SQLDatabase)? = nil, cancelQueries: @escaping @Sendable () async -> Void = {}) {
        self.sql = sql
        self.dialect = dialect
        self.location = location
        self.lifetime = lifetime
        self.startupSQL = startupSQL ?? sql
        self.cancelQueries = cancelQueries
    }

    /// Opens the database: SQLite's file and connections at once (`SQLiteFile`); for PostgreSQL a pool that makes
    /// no connection until the first query (`ping()` to check reachability).
    /// `waitTimeout` bounds how long a query waits for a pooled PostgreSQL connection, `queryTimeout` how long a
    /// PostgreSQL query or session may take in all, the wait included (docs/operations.md "Configuration").
    public static func open(_ database: HoldfastConfiguration.Database, logger: Logger,
                            waitTimeout: Duration = ConnectionConfiguration.defaultDatabaseWaitTimeout,
                            queryTimeout: Duration = defaultQueryTimeout) throws(StorageError) -> HoldfastDatabase {
        let group = MultiThreadedEventLoopGroup.singleton
        switch database {
        case .sqlite(let path):
            let directory = URL(fileURLWithPath: path).deletingLastPathComponent()
            do {
                try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true,
                                                        attributes: [.posixPermissions: 0o700])
            } catch {
                throw StorageError(code: StorageError.Code.unavailable,
                                   message: "cannot create the data folder \(directory.path): \(error.localizedDescription)")
            }
            let file: SQLiteFile
            do {
                file = try SQLiteFile.open(path: path)
            } catch {
                throw StorageError(code: StorageError.Code.unavailable,
                                   message: "cannot open the SQLite database \(path): \(error.message)")
            }
            let sql = SQLiteFileDatabase(file: file, logger: logger, queryLogLevel: .trace)
            return HoldfastDatabase(sql: sql, dialect: .sqlite, location: HoldfastConfiguration.describe(database),
                                    lifetime: DatabaseLifetime(close: { file.release() }, abandon: { file.release() }))
        case .postgres(let url):
            var configuration: SQLPostgresConfiguration
            do {
                configuration = try SQLPostgresConfiguration(url: url)
            } catch {
                throw StorageError(code: StorageError.Code.unavailable,
                                   message: "HOLDFAST_DATABASE_URL cannot be used: \(HoldfastConfiguration.describe(database))")
            }
            // PostgreSQL gives up on a statement, or a transaction left idle, at the same deadline as the node; the
            // application name tells this node's backends apart (`cancelRunningQueries`).
            let applicationName = "holdfast-" + Hex.encode((0..<6).map { _ in UInt8.random(in: 0...255) })
            let milliseconds = String(PostgresDeadlineDatabase.nanoseconds(queryTimeout) / 1_000_000)
            configuration.coreConfiguration.options.additionalStartupParameters += [
                ("application_name", applicationName),
                ("statement_timeout", milliseconds),
                ("idle_in_transaction_session_timeout", milliseconds),
            ]
            let cancelConfiguration = configuration.coreConfiguration
            let pool = EventLoopGroupConnectionPool(
                source: PostgresConnectionSource(sqlConfiguration: configuration),
                maxConnectionsPerEventLoop: postgresConnectionsPerEventLoop,
                requestTimeout: .nanoseconds(Int64(waitTimeout.components.seconds) * 1_000_000_000
                    + waitTimeout.components.attoseconds / 1_000_000_000),
                pruneInterval: .seconds(60),
                logger: logger,
                on: group)
            let box = ConnectionPoolBox(pool: pool)
            let sql = PostgresDeadlineDatabase(poolBox: box, timeout: queryTimeout, logger: logger, queryLogLevel: .trace)
            return HoldfastDatabase(sql: sql, dialect: .postgresql, location: HoldfastConfiguration.describe(database),
                                    lifetime: DatabaseLifetime(close: { try? await box.pool.shutdownAsync() },
                                                               abandon: { box.pool.shutdownGracefully { _ in } }),
                                    startupSQL: pool.database(logger: logger).sql(queryLogLevel: .trace),
                                    cancelQueries: {
                                        await PostgresQueryCancel.cancel(applicationName: applicationName,
                                                                         configuration: cancelConfiguration, logger: logger)
                                    })
        }
    }

    /// Asks PostgreSQL to cancel the queries this node still has running (`pg_cancel_backend`, from a connection of
    /// its own): at the shutdown deadline, so that no backend stays queued on a lock after the node exited. Nothing
    /// on SQLite, whose queries end with the process.
    public func cancelRunningQueries() async {
        await cancelQueries()
    }

    /// Closes every connection; the database is unusable afterwards.
    public func close() async {
        await lifetime.close()
    }

    /// A round trip (`SELECT 1`), for `/health` and start-up.
    public func ping() async throws {
        try await sql.raw("SELECT 1 AS one").run()
    }

    /// Runs `body` in a transaction on one connection: committed when it returns, rolled back when it throws.
    /// On SQLite the transaction takes the write lock at once (`BEGIN IMMEDIATE`) so that two writers queue
    /// behind the busy timeout instead of failing on upgrade.
    ///
    /// A caller cancelled before `COMMIT` (a request still running at the shutdown deadline, docs/operations.md "Configuration")
    /// is rolled back and gets `CancellationError`: nothing is committed after its client was cut off. The pool may
    /// run `body` in a task of its own, so the caller's cancellation is carried over by `CancellationFlag`.
    public func transaction<T: Sendable>(_ body: @escaping @Sendable (any SQLDatabase) async throws -> T) async throws -> T {
        let dialect = self.dialect
        let cancelled = CancellationFlag()
        return try await withTaskCancellationHandler {
            try await sql.withSession { session in
                try await Self.transaction(on: session, dialect: dialect, cancelled: cancelled, body)
            }
        } onCancel: {
            cancelled.set()
        }
    }

    /// Whether the task that asked for a transaction was cancelled.
    final class CancellationFlag: Sendable {
        private let flag = Atomic<Bool>(false)

        func set() { flag.store(true, ordering: .releasing) }

        var isSet: Bool { flag.load(ordering: .acquiring) }
    }

    /// A transaction on a connection already held (inside `withStartupLock`).
    static func transaction<T: Sendable>(on session: any SQLDatabase, dialect: Dialect, cancelled: CancellationFlag = CancellationFlag(),
                                         _ body: @escaping @Sendable (any SQLDatabase) async throws -> T) async throws -> T {
        try await session.raw(dialect == .sqlite ? "BEGIN IMMEDIATE" : "BEGIN").run()
        do {
            let result = try await body(session)
            if cancelled.isSet || Task.isCancelled { throw CancellationError() }
            try await session.raw("COMMIT").run()
            return result
        } catch {
            try? await session.raw("ROLLBACK").run()
            throw error
        }
    }

    /// The key of the PostgreSQL advisory lock that serialises start-up work (migrations, bootstrap key,
    /// tenant keys) across server nodes: "HOLDFAST" in ASCII.
    static let startupLockKey: Int64 = 0x484F_4C44_4641_5354

    /// Runs `body` on one connection while holding the start-up lock: `pg_advisory_lock` on PostgreSQL (two
    /// nodes starting at once take turns; the lock goes with the session if the node dies), nothing more on
    /// SQLite, where each step is a `BEGIN IMMEDIATE` transaction and unique constraints settle races.
    public func withStartupLock<T: Sendable>(_ body: @escaping @Sendable (any SQLDatabase) async throws -> T) async throws -> T {
        let dialect = self.dialect
        return try await startupSQL.withSession { session in
            guard dialect == .postgresql else { return try await body(session) }
            // Waiting for another node's migrations, and a migration itself, may take longer than a request's query
            // deadline: this session has none (RESET gives the connection its opening value back).
            try await session.raw("SET statement_timeout = 0").run()
            try await session.raw("SELECT pg_advisory_lock(\(bind: Self.startupLockKey))").run()
            do {
                let result = try await body(session)
                try await session.raw("SELECT pg_advisory_unlock(\(bind: Self.startupLockKey))").run()
                try await session.raw("RESET statement_timeout").run()
                return result
            } catch {
                try? await session.raw("SELECT pg_advisory_unlock(\(bind: Self.startupLockKey))").run()
                try? await session.raw("RESET statement_timeout").run()
                throw error
            }
        }
    }
}

/// Closes the database once: when `close()` is called, or else when the last copy of the `HoldfastDatabase` goes
/// away. A PostgreSQL pool that is released without being shut down keeps its connections open (and stops a debug
/// build), so a path that forgets `close()` — an error between opening and handing the database to its owner —
/// costs nothing.
final class DatabaseLifetime: Sendable {
    private let closed = Locked(false)
    private let closeNow: @Sendable () async -> Void
    private let abandon: @Sendable () -> Void

    /// - Parameters:
    ///   - close: closes and waits until it is done.
    ///   - abandon: starts closing without waiting (from `deinit`).
    init(close: @escaping @Sendable () async -> Void, abandon: @escaping @Sendable () -> Void) {
        self.closeNow = close
        self.abandon = abandon
    }

    func close() async {
        guard markClosed() else { return }
        await closeNow()
    }

    private func markClosed() -> Bool {
        closed.withLock { closed in
            defer { closed = true }
            return !closed
        }
    }

    deinit {
        if markClosed() { abandon() }
    }
}

/// Carries an AsyncKit pool across concurrency domains.
///
/// `@unchecked Sendable`: `EventLoopGroupConnectionPool` is a final class whose mutable state (the shutdown
/// flag) is guarded by its own lock, and whose per-loop pools only touch their state on their event loop;
/// AsyncKit predates `Sendable` and does not say so (postgres-kit imports it `@preconcurrency` for the same
/// reason).
struct ConnectionPoolBox<Source: ConnectionPoolSource>: @unchecked Sendable {
    let pool: EventLoopGroupConnectionPool<Source>
}
