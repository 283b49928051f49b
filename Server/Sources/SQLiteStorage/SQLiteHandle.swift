import CSQLite

/// One SQLite connection (sqlite.org/c3ref/sqlite3.html) with its prepared statements kept for reuse.
///
/// Not thread-safe on purpose: it is opened with `SQLITE_OPEN_NOMUTEX`, and its owner (`SQLiteFile`) lets one
/// thread at a time use it. Statements are prepared once per SQL text (`SQLITE_PREPARE_PERSISTENT`) and reset after
/// every execution, so that a cached statement never keeps a read transaction (and an old snapshot) open.
final class SQLiteHandle {
    /// A prepared statement and what it always returns: its column names and whether it writes.
    final class Statement {
        let pointer: OpaquePointer
        /// The result columns; read again when SQLite has re-prepared the statement after a schema change (a
        /// `SELECT *` then returns the new columns).
        private(set) var columns: SQLiteColumns
        private var reprepares: Int32 = 0
        /// `sqlite3_stmt_readonly`: true when the statement does not write to the database.
        let readOnly: Bool

        init(pointer: OpaquePointer, readOnly: Bool) {
            self.pointer = pointer
            self.columns = Self.columnNames(pointer)
            self.readOnly = readOnly
        }

        /// Call after a step: refreshes `columns` if SQLite re-prepared the statement (`SQLITE_STMTSTATUS_REPREPARE`).
        func refreshColumnsIfReprepared() {
            let count = sqlite3_stmt_status(pointer, SQLITE_STMTSTATUS_REPREPARE, 0)
            guard count != reprepares else { return }
            reprepares = count
            columns = Self.columnNames(pointer)
        }

        private static func columnNames(_ pointer: OpaquePointer) -> SQLiteColumns {
            let count = Int(sqlite3_column_count(pointer))
            return SQLiteColumns((0..<count).map { String(cString: sqlite3_column_name(pointer, Int32($0))) })
        }
    }

    private var connection: OpaquePointer?
    private var statements: [String: Statement] = [:]
    /// Distinct SQL texts kept prepared; past this the cache is emptied and fills again with what is in use.
    static let statementCacheCapacity = 256

    /// WAL pages (4 KiB) after which a commit checkpoints by itself: SQLite's default is 1,000.
    static let commitCheckpointPages: Int32 = 16_000

    /// Opens (creating if needed) the database at `path`, in WAL mode with `synchronous = NORMAL` (a commit does not
    /// wait for the disk; a power cut can lose the last commits but never corrupts), and a busy timeout for writers
    /// of other processes (the CLI's admin commands).
    /// Process-wide settings, made once before the first connection initialises SQLite: memory statistics off (a
    /// global mutex per allocation otherwise; DESIGN.md §7). SQLite refuses it (`SQLITE_MISUSE`) if something else in
    /// the process initialised the library first, which costs only the statistics' mutex.
    static let processSettings: Int32 = csqlite_disable_memory_statistics()

    init(path: String, busyTimeoutMilliseconds: Int32) throws(SQLiteStatementError) {
        _ = Self.processSettings
        var handle: OpaquePointer?
        let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX
        let status = sqlite3_open_v2(path, &handle, flags, nil)
        guard status == SQLITE_OK, let handle else {
            let message = handle.flatMap { sqlite3_errmsg($0) }.map { String(cString: $0) } ?? "cannot open"
            sqlite3_close(handle)
            throw SQLiteStatementError(code: status, message: "\(message) (\(path))")
        }
        connection = handle
        sqlite3_extended_result_codes(handle, 1)
        sqlite3_busy_timeout(handle, busyTimeoutMilliseconds)
        // Checkpoints run on `SQLiteCheckpointer`'s thread; a commit checkpoints itself (and waits for the disk
        // while holding the writer) only if the WAL outgrew that, as a safety net.
        sqlite3_wal_autocheckpoint(handle, Self.commitCheckpointPages)
        do {
            for pragma in ["PRAGMA journal_mode = WAL", "PRAGMA synchronous = NORMAL"] {
                try run(pragma, binds: [], cache: false) { _ in }
            }
        } catch {
            close()
            throw error
        }
    }

    deinit { close() }

    func close() {
        for statement in statements.values { sqlite3_finalize(statement.pointer) }
        statements.removeAll()
        if let connection { sqlite3_close_v2(connection) }
        connection = nil
    }

    /// `PRAGMA wal_checkpoint(PASSIVE)`: copies what it can of the WAL into the database file without waiting for
    /// readers or the writer, then syncs the file.
    func checkpoint() {
        guard let connection else { return }
        sqlite3_wal_checkpoint_v2(connection, nil, SQLITE_CHECKPOINT_PASSIVE, nil, nil)
    }

    /// Whether no transaction is open (`sqlite3_get_autocommit`).
    var isInAutocommit: Bool { connection.map { sqlite3_get_autocommit($0) != 0 } ?? true }

    /// The statement for `sql`, prepared now or taken from the cache.
    func statement(_ sql: String, cache: Bool = true) throws(SQLiteStatementError) -> Statement {
        if let cached = statements[sql] { return cached }
        guard let connection else { throw SQLiteStatementError(code: SQLITE_MISUSE, message: "the connection is closed") }
        var pointer: OpaquePointer?
        var tail: UnsafePointer<CChar>?
        let flags = cache ? UInt32(SQLITE_PREPARE_PERSISTENT) : 0
        let status = sql.withCString { text in
            let status = sqlite3_prepare_v3(connection, text, -1, flags, &pointer, &tail)
            // One statement per call: text after the first statement would otherwise be silently ignored.
            if status == SQLITE_OK, let tail, !Self.isBlank(tail) {
                sqlite3_finalize(pointer)
                pointer = nil
                return SQLITE_MISUSE
            }
            return status
        }
        guard status == SQLITE_OK, let pointer else {
            if status == SQLITE_MISUSE { throw SQLiteStatementError(code: status, message: "one SQL statement at a time") }
            throw error(status)
        }
        let statement = Statement(pointer: pointer, readOnly: sqlite3_stmt_readonly(pointer) != 0)
        if cache {
            if statements.count >= Self.statementCacheCapacity {
                for old in statements.values { sqlite3_finalize(old.pointer) }
                statements.removeAll(keepingCapacity: true)
            }
            statements[sql] = statement
        }
        return statement
    }

    /// Runs `sql` with `binds` (`?` placeholders, in order), calling `onRow` for each result row.
    func run(_ sql: String, binds: [SQLiteValue], cache: Bool = true,
             _ onRow: (SQLiteResultRow) throws -> Void) throws(SQLiteStatementError) {
        try run(try statement(sql, cache: cache), binds: binds, finalize: !cache, onRow)
    }

    /// Runs a prepared statement of this connection.
    func run(_ statement: Statement, binds: [SQLiteValue], finalize: Bool = false,
             _ onRow: (SQLiteResultRow) throws -> Void) throws(SQLiteStatementError) {
        let pointer = statement.pointer
        defer {
            sqlite3_reset(pointer)
            sqlite3_clear_bindings(pointer)
            if finalize { sqlite3_finalize(pointer) }
        }
        guard Int(sqlite3_bind_parameter_count(pointer)) == binds.count else {
            throw SQLiteStatementError(code: SQLITE_RANGE, message: "the statement takes \(sqlite3_bind_parameter_count(pointer)) values, \(binds.count) given")
        }
        for (offset, value) in binds.enumerated() {
            let status = Self.bind(value, at: Int32(offset + 1), to: pointer)
            guard status == SQLITE_OK else { throw error(status) }
        }
        var first = true
        while true {
            let status = sqlite3_step(pointer)
            if first {
                statement.refreshColumnsIfReprepared()
                first = false
            }
            if status == SQLITE_DONE { return }
            guard status == SQLITE_ROW else { throw error(status) }
            let row = SQLiteResultRow(columns: statement.columns, values: Self.values(of: pointer, count: statement.columns.names.count))
            do {
                try onRow(row)
            } catch let failure as SQLiteStatementError {
                throw failure
            } catch {
                throw SQLiteStatementError(code: SQLITE_ABORT, message: "row handler failed: \(error)")
            }
        }
    }

    private static func bind(_ value: SQLiteValue, at index: Int32, to pointer: OpaquePointer) -> Int32 {
        switch value {
        case .integer(let integer):
            return sqlite3_bind_int64(pointer, index, integer)
        case .float(let double):
            return sqlite3_bind_double(pointer, index, double)
        case .text(let text):
            return sqlite3_bind_text64(pointer, index, text, UInt64(text.utf8.count), sqliteTransient,
                                                  UInt8(SQLITE_UTF8))
        case .blob(let buffer):
            return buffer.withUnsafeBytes { bytes in
                // A zero-length blob still needs a non-null pointer to be a blob rather than NULL.
                sqlite3_bind_blob64(pointer, index, bytes.baseAddress ?? UnsafeRawPointer(bitPattern: 1),
                                               UInt64(bytes.count), sqliteTransient)
            }
        case .null:
            return sqlite3_bind_null(pointer, index)
        }
    }

    private static func values(of pointer: OpaquePointer, count: Int) -> [SQLiteValue] {
        var values: [SQLiteValue] = []
        values.reserveCapacity(count)
        for column in 0..<Int32(count) {
            switch sqlite3_column_type(pointer, column) {
            case SQLITE_INTEGER:
                values.append(.integer(sqlite3_column_int64(pointer, column)))
            case SQLITE_FLOAT:
                values.append(.float(sqlite3_column_double(pointer, column)))
            case SQLITE_TEXT:
                let length = Int(sqlite3_column_bytes(pointer, column))
                if let text = sqlite3_column_text(pointer, column) {
                    values.append(.text(String(decoding: UnsafeBufferPointer(start: text, count: length), as: UTF8.self)))
                } else {
                    values.append(.text(""))
                }
            case SQLITE_BLOB:
                let length = Int(sqlite3_column_bytes(pointer, column))
                if let bytes = sqlite3_column_blob(pointer, column), length > 0 {
                    values.append(.blob(Array(UnsafeRawBufferPointer(start: bytes, count: length))))
                } else {
                    values.append(.blob([]))
                }
            default:
                values.append(.null)
            }
        }
        return values
    }

    private func error(_ status: Int32) -> SQLiteStatementError {
        let message = connection.flatMap { sqlite3_errmsg($0) }.map { String(cString: $0) }
            ?? String(cString: sqlite3_errstr(status))
        let code = connection.map { sqlite3_extended_errcode($0) } ?? status
        return SQLiteStatementError(code: code, message: message)
    }

    private static func isBlank(_ text: UnsafePointer<CChar>) -> Bool {
        var cursor = text
        while cursor.pointee != 0 {
            switch UInt8(bitPattern: cursor.pointee) {
            case 0x20, 0x09, 0x0A, 0x0D, UInt8(ascii: ";"): cursor += 1
            default: return false
            }
        }
        return true
    }
}

/// `SQLITE_TRANSIENT`: SQLite copies a bound value before the call returns.
private let sqliteTransient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

/// A failed SQLite call: the extended result code (sqlite.org/rescode.html) and SQLite's message.
public struct SQLiteStatementError: Error, CustomStringConvertible, Sendable {
    public let code: Int32
    public let message: String

    public var description: String { "SQLite error \(code): \(message)" }

    /// A UNIQUE, PRIMARY KEY or other constraint failed (`SQLITE_CONSTRAINT` and its extended codes).
    public var isConstraintViolation: Bool { code & 0xFF == SQLITE_CONSTRAINT }
}
