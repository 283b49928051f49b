import Foundation
import Logging
import Plumbing

/// An SQLite database file as the server uses it (DESIGN.md §4 "Storage"): a few reader connections and one
/// writer connection, run on the calling thread.
///
/// - A statement runs on the writer connection when it is free (its page cache stays warm); when it is not, a
///   read runs on a free reader connection under a plain lock (in WAL mode a reader never waits for the writer,
///   and an indexed lookup takes microseconds, less than handing it to another thread and back), and a write
///   (any statement SQLite reports as not read-only) waits for the writer.
/// - The writer is taken with an `AsyncLock`, and sessions (transactions) hold it: a second writer suspends
///   instead of blocking a thread, so a transaction that awaits between statements can always finish.
/// - Checkpoints (WAL back into the file, and the disk sync) run on a thread of their own (`SQLiteCheckpointer`).
/// - One `SQLiteFile` per file per process (`SQLiteFile.open`): two `HoldfastDatabase`s on the same path (two
///   in-process nodes in tests) share its writer lock rather than meet in SQLite's busy handler. Other processes
///   (the CLI's admin commands) are waited for by the busy timeout.
///
/// Every connection is used under its own lock (`Locked`); the writer also only under `writerLock`.
public final class SQLiteFile: Sendable {
    let path: String
    private let readers: [Locked<SQLiteHandle>]
    private let writerHandle: Locked<SQLiteHandle>
    let writerLock = AsyncLock()
    private let checkpointer: SQLiteCheckpointer

    static let readerCount = 2
    static let busyTimeoutMilliseconds: Int32 = 5000

    private init(path: String) throws(SQLiteStatementError) {
        self.path = path
        // The writer first: it switches the file to WAL before the readers open it.
        writerHandle = Locked(try SQLiteHandle(path: path, busyTimeoutMilliseconds: Self.busyTimeoutMilliseconds))
        var readers: [Locked<SQLiteHandle>] = []
        for _ in 0..<Self.readerCount {
            readers.append(Locked(try SQLiteHandle(path: path, busyTimeoutMilliseconds: Self.busyTimeoutMilliseconds)))
        }
        self.readers = readers
        checkpointer = try SQLiteCheckpointer(path: path)
    }

    // MARK: Sharing by path

    private static let open = Locked<[String: (file: SQLiteFile, users: Int)]>([:])

    /// The process's `SQLiteFile` for `path`, opened (and the file created) on first use.
    public static func open(path: String) throws(SQLiteStatementError) -> SQLiteFile {
        let key = URL(fileURLWithPath: path).standardizedFileURL.resolvingSymlinksInPath().path
        let result: Result<SQLiteFile, SQLiteStatementError> = open.withLock { files in
            if let entry = files[key] {
                files[key] = (entry.file, entry.users + 1)
                return .success(entry.file)
            }
            do {
                let file = try SQLiteFile(path: key)
                files[key] = (file, 1)
                return .success(file)
            } catch let error as SQLiteStatementError {
                return .failure(error)
            } catch {
                return .failure(SQLiteStatementError(code: 1, message: "\(error)"))
            }
        }
        return try result.get()
    }

    /// Gives back one `open`; the connections close when the last user is gone.
    public func release() {
        let key = path
        let closing = Self.open.withLock { files -> Bool in
            guard let entry = files[key], entry.file === self else { return false }
            if entry.users > 1 {
                files[key] = (entry.file, entry.users - 1)
                return false
            }
            files[key] = nil
            return true
        }
        guard closing else { return }
        checkpointer.stop()
        for reader in readers { reader.withLock { $0.close() } }
        writerHandle.withLock { $0.close() }
    }

    // MARK: Running statements

    /// Runs one statement outside a session: on the writer when it is free, else on a reader if it only reads, else
    /// on the writer once it is free.
    ///
    /// The writer goes first because its page cache stays warm: SQLite drops a connection's cache whenever another
    /// connection has written, so a reader re-reads its pages after every write (measured: a third of the time
    /// of a renewal's two statements).
    func run(_ sql: String, _ binds: [SQLiteValue], _ onRow: (SQLiteResultRow) throws -> Void) async throws {
        if writerLock.tryLock() {
            defer { writerLock.unlock() }
            try runOutsideSession(sql, binds, onRow)
            return
        }
        if try withReader({ reader -> Bool in
            let statement = try reader.statement(sql)
            guard statement.readOnly else { return false }
            try reader.run(statement, binds: binds, onRow)
            return true
        }) {
            return
        }
        try SQLiteSessionMarker.checkNotInside(self)
        await writerLock.lock()
        defer { writerLock.unlock() }
        try runOutsideSession(sql, binds, onRow)
    }

    /// A statement on the writer outside a session must leave no transaction open (the next statement of another
    /// task would run inside it): a `BEGIN` there is rolled back and refused. Transactions need `withSession`.
    private func runOutsideSession(_ sql: String, _ binds: [SQLiteValue], _ onRow: (SQLiteResultRow) throws -> Void) throws {
        try runOnWriter(sql, binds, onRow)
        guard writerIsInAutocommit() else {
            try? runOnWriter("ROLLBACK", []) { _ in }
            throw SQLiteStatementError(code: 21, message: "a transaction was begun outside a session; use withSession")
        }
    }

    /// Runs one statement on the writer; the caller holds `writerLock`.
    func runOnWriter(_ sql: String, _ binds: [SQLiteValue], _ onRow: (SQLiteResultRow) throws -> Void) throws {
        try writerHandle.withLock { try $0.run(sql, binds: binds, onRow) }
    }

    /// Whether the writer is outside any transaction (`sqlite3_get_autocommit`); the caller holds `writerLock`.
    func writerIsInAutocommit() -> Bool {
        writerHandle.withLock { $0.isInAutocommit }
    }

    private func withReader<T: Sendable>(_ body: (SQLiteHandle) throws -> T) throws -> T {
        for reader in readers {
            if let result = try reader.withLockIfAvailable({ try body($0) }) { return result }
        }
        // All busy (more concurrent readers than connections): wait for the first, which is never held long.
        return try readers[0].withLock { try body($0) }
    }
}

/// Marks the tasks running inside a session of an `SQLiteFile`, so that a write through the database itself
/// (which would wait for the session's own writer lock forever) fails at once with a clear error instead.
enum SQLiteSessionMarker {
    @TaskLocal static var file: ObjectIdentifier?

    static func checkNotInside(_ file: SQLiteFile) throws {
        if Self.file == ObjectIdentifier(file) {
            throw SQLiteStatementError(code: 21, message: "a write outside the session while this task holds the session's writer; use the session")
        }
    }
}
