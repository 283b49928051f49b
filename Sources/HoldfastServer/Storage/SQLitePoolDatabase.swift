import Logging
import SQLiteKit

/// An SQLite connection source that prepares each new connection for a server: WAL journal (readers do not
/// block the writer), a busy timeout (a second writer waits instead of failing with `SQLITE_BUSY`), foreign keys.
struct SQLiteServerConnectionSource: ConnectionPoolSource {
    let base: SQLiteConnectionSource
    let busyTimeoutMilliseconds: Int

    init(path: String, busyTimeoutMilliseconds: Int = 5000) {
        self.base = SQLiteConnectionSource(configuration: SQLiteConfiguration(storage: .file(path: path)))
        self.busyTimeoutMilliseconds = busyTimeoutMilliseconds
    }

    func makeConnection(logger: Logger, on eventLoop: any EventLoop) -> EventLoopFuture<SQLiteConnection> {
        let timeout = busyTimeoutMilliseconds
        return base.makeConnection(logger: logger, on: eventLoop).flatMap { connection in
            connection.query("PRAGMA busy_timeout = \(timeout)").flatMap { _ in
                connection.query("PRAGMA journal_mode = WAL")
            }.flatMap { _ in
                connection.query("PRAGMA synchronous = NORMAL")
            }.map { _ in connection }.flatMapError { error in
                connection.close().flatMapThrowing { throw error }
            }
        }
    }
}

/// `SQLiteDatabase` over a connection pool (sqlite-kit has the pool source but no pooled database): each query
/// borrows a connection; `withConnection` keeps one for a session (a transaction). NIO futures stay in here.
struct SQLitePoolDatabase: SQLiteDatabase {
    let box: ConnectionPoolBox<SQLiteServerConnectionSource>
    let logger: Logger

    var pool: EventLoopGroupConnectionPool<SQLiteServerConnectionSource> { box.pool }

    var eventLoop: any EventLoop { pool.eventLoopGroup.any() }

    func query(_ query: String, _ binds: [SQLiteData], logger: Logger,
               _ onRow: @escaping @Sendable (SQLiteRow) -> Void) -> EventLoopFuture<Void> {
        pool.withConnection(logger: logger) { connection in
            connection.query(query, binds, logger: logger, onRow)
        }
    }

    func withConnection<T>(_ closure: @escaping @Sendable (SQLiteConnection) -> EventLoopFuture<T>) -> EventLoopFuture<T> {
        pool.withConnection(logger: logger, closure)
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
