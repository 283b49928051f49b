import Foundation
import Logging
import NIOCore
import NIOPosix
import Plumbing
import SQLKit

/// sql-kit's `SQLDatabase` over an `SQLiteFile`: statements run on the calling thread, reads on a reader
/// connection, writes and sessions on the writer (see `SQLiteFile`). Prepared statements are reused by SQL text,
/// so the fixed SQL of hot paths is parsed once per connection.
public struct SQLiteFileDatabase: SQLDatabase {
    let file: SQLiteFile
    public let logger: Logger
    public let queryLogLevel: Logger.Level?
    /// Set for the database handed to a session's closure: statements go to the writer, whose lock is held.
    private let session: SessionState?

    /// Whether a session is still open (its database must not be used after its closure returned).
    final class SessionState: Sendable {
        private let open = Locked(true)
        var isOpen: Bool { open.withLock { $0 } }
        func close() { open.withLock { $0 = false } }
    }

    public init(file: SQLiteFile, logger: Logger, queryLogLevel: Logger.Level?) {
        self.init(file: file, logger: logger, queryLogLevel: queryLogLevel, session: nil)
    }

    private init(file: SQLiteFile, logger: Logger, queryLogLevel: Logger.Level?, session: SessionState?) {
        self.file = file
        self.logger = logger
        self.queryLogLevel = queryLogLevel
        self.session = session
    }

    public var eventLoop: any EventLoop { MultiThreadedEventLoopGroup.singleton.any() }

    public var dialect: any SQLDialect { SQLiteSQLDialect() }

    public func execute(sql query: any SQLExpression, _ onRow: @escaping @Sendable (any SQLRow) -> ()) -> EventLoopFuture<Void> {
        eventLoop.makeFutureWithTask { try await self.execute(sql: query, onRow) }
    }

    public func execute(sql query: any SQLExpression, _ onRow: @escaping @Sendable (any SQLRow) -> ()) async throws {
        let (sql, rawBinds) = serialize(query)
        if let queryLogLevel {
            // The SQL text only: bound values can be secrets.
            logger.log(level: queryLogLevel, "executing query", metadata: ["sql": .string(sql)])
        }
        var binds: [SQLiteValue] = []
        binds.reserveCapacity(rawBinds.count)
        for value in rawBinds { binds.append(try SQLiteValue(encoding: value)) }
        if let session {
            guard session.isOpen else {
                throw SQLiteStatementError(code: 21, message: "the session's database was used after its session ended")
            }
            try file.runOnWriter(sql, binds) { onRow($0) }
        } else {
            try await file.run(sql, binds) { onRow($0) }
        }
    }

    /// Runs `closure` with the writer connection to itself. A transaction the closure leaves open is rolled back.
    public func withSession<R>(_ closure: @escaping @Sendable (any SQLDatabase) async throws -> R) async throws -> R {
        if session != nil { return try await closure(self) }
        try SQLiteSessionMarker.checkNotInside(file)
        await file.writerLock.lock()
        let state = SessionState()
        let database = SQLiteFileDatabase(file: file, logger: logger, queryLogLevel: queryLogLevel, session: state)
        defer {
            state.close()
            if !file.writerIsInAutocommit() {
                logger.error("a database session ended inside a transaction; rolled back")
                try? file.runOnWriter("ROLLBACK", []) { _ in }
            }
            file.writerLock.unlock()
        }
        return try await SQLiteSessionMarker.$file.withValue(ObjectIdentifier(file)) {
            try await closure(database)
        }
    }
}
