import Foundation
import Logging
import SQLKit
@testable import SQLiteStorage
import Testing

/// The SQLite driver (`SQLiteFile`, `SQLiteFileDatabase`): values, statement rules, sessions and their locking.
@Suite struct SQLiteFileDatabaseTests {
    /// A database on one file as the server opens it: the shared `SQLiteFile` and sql-kit's view of it.
    struct TestDatabase {
        let file: SQLiteFile
        let sql: SQLiteFileDatabase

        static func open(path: String) throws -> TestDatabase {
            let file = try SQLiteFile.open(path: path)
            var logger = Logger(label: "holdfast.sqlite.tests")
            logger.logLevel = .critical
            return TestDatabase(file: file, sql: SQLiteFileDatabase(file: file, logger: logger, queryLogLevel: .trace))
        }

        func close() async { file.release() }

        /// A transaction on the writer, as the server runs one (`BEGIN IMMEDIATE` … `COMMIT`, `ROLLBACK` on error).
        func transaction<T: Sendable>(_ body: @escaping @Sendable (any SQLDatabase) async throws -> T) async throws -> T {
            try await sql.withSession { session in
                try await session.raw("BEGIN IMMEDIATE").run()
                do {
                    let result = try await body(session)
                    try await session.raw("COMMIT").run()
                    return result
                } catch {
                    try? await session.raw("ROLLBACK").run()
                    throw error
                }
            }
        }
    }

    private static func withDatabase<T>(_ body: (TestDatabase, String) async throws -> T) async throws -> T {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("holdfast-sqlite-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("test.sqlite").path
        let database = try TestDatabase.open(path: path)
        do {
            try await database.sql.raw("CREATE TABLE t (id TEXT PRIMARY KEY, n BIGINT, f DOUBLE, b BLOB, s TEXT)").run()
            let result = try await body(database, path)
            await database.close()
            return result
        } catch {
            await database.close()
            throw error
        }
    }

    @Test func valuesOfEveryStorageClassRoundTrip() async throws {
        try await Self.withDatabase { database, _ in
            let text = "naïve ✓ \u{0}inside"
            try await database.sql.insert(into: "t").columns("id", "n", "f", "b", "s")
                .values(SQLBind("a"), SQLBind(Int64.min), SQLBind(2.5), SQLBind(Data([0, 1, 255])), SQLBind(text)).run()
            try await database.sql.insert(into: "t").columns("id", "n", "f", "b", "s")
                .values(SQLBind("b"), SQLLiteral.null, SQLLiteral.null, SQLBind(Data()), SQLLiteral.null).run()
            let rows = try await database.sql.select().column("*").from("t").orderBy("id").all()
            #expect(rows.count == 2)
            #expect(try rows[0].decode(column: "n", as: Int64.self) == Int64.min)
            #expect(try rows[0].decode(column: "f", as: Double.self) == 2.5)
            #expect(try rows[0].decode(column: "b", as: Data.self) == Data([0, 1, 255]))
            #expect(try rows[0].decode(column: "s", as: String.self) == text)
            #expect(try rows[1].decodeNil(column: "n"))
            #expect(try rows[1].decodeNil(column: "s"))
            #expect(try rows[1].decode(column: "b", as: Data.self) == Data())
            #expect(try rows[1].decode(column: "n", as: Int64?.self) == nil)
            #expect(rows[0].allColumns == ["id", "n", "f", "b", "s"])
            #expect(throws: (any Error).self) { try rows[0].decode(column: "missing", as: String.self) }
        }
    }

    @Test func badStatementsFailWithAnErrorAndLeaveTheConnectionUsable() async throws {
        try await Self.withDatabase { database, _ in
            await #expect(throws: SQLiteStatementError.self) { try await database.sql.raw("NOT SQL").run() }
            // Two statements in one text would run only the first: refused.
            await #expect(throws: SQLiteStatementError.self) {
                try await database.sql.raw("INSERT INTO t (id) VALUES ('x'); DELETE FROM t").run()
            }
            try await database.sql.raw("INSERT INTO t (id) VALUES ('x');").run()
            do {
                try await database.sql.raw("INSERT INTO t (id) VALUES ('x')").run()
                Issue.record("a duplicate primary key was accepted")
            } catch let error as SQLiteStatementError {
                #expect(error.isConstraintViolation)
            }
            let count = try await database.sql.raw("SELECT COUNT(*) AS c FROM t").first()?.decode(column: "c", as: Int64.self)
            #expect(count == 1)
        }
    }

    @Test func aSessionCommitsOrRollsBackAndAnOpenTransactionIsNotLeftBehind() async throws {
        try await Self.withDatabase { database, _ in
            try await database.transaction { session in
                try await session.raw("INSERT INTO t (id) VALUES ('kept')").run()
            }
            await #expect(throws: (any Error).self) {
                try await database.transaction { session in
                    try await session.raw("INSERT INTO t (id) VALUES ('undone')").run()
                    throw CancellationError()
                }
            }
            // A session that begins a transaction and forgets it: rolled back when the session ends.
            try await database.sql.withSession { session in
                try await session.raw("BEGIN IMMEDIATE").run()
                try await session.raw("INSERT INTO t (id) VALUES ('forgotten')").run()
            }
            try await database.sql.raw("INSERT INTO t (id) VALUES ('after')").run()
            let ids = try await database.sql.select().column("id").from("t").orderBy("id").all()
                .map { try $0.decode(column: "id", as: String.self) }
            #expect(ids == ["after", "kept"])
        }
    }

    @Test func aWriteOutsideTheSessionInsideItFailsInsteadOfWaitingForever() async throws {
        try await Self.withDatabase { database, _ in
            let outer = database.sql
            try await outer.withSession { session in
                await #expect(throws: SQLiteStatementError.self) {
                    try await outer.raw("INSERT INTO t (id) VALUES ('outside')").run()
                }
                // Reading through the database itself is fine: it goes to a reader connection.
                _ = try await outer.raw("SELECT COUNT(*) AS c FROM t").first()
                try await session.raw("INSERT INTO t (id) VALUES ('inside')").run()
            }
            let ids = try await outer.select().column("id").from("t").all().map { try $0.decode(column: "id", as: String.self) }
            #expect(ids == ["inside"])
        }
    }

    @Test func aTransactionBegunOutsideASessionIsRolledBackAndRefused() async throws {
        try await Self.withDatabase { database, _ in
            await #expect(throws: SQLiteStatementError.self) { try await database.sql.raw("BEGIN").run() }
            // The writer is back in autocommit: this insert is committed on its own.
            try await database.sql.raw("INSERT INTO t (id) VALUES ('alone')").run()
            let count = try await database.sql.raw("SELECT COUNT(*) AS c FROM t").first()?.decode(column: "c", as: Int64.self)
            #expect(count == 1)
        }
    }

    /// A cached `SELECT *` re-prepared by SQLite after the table changed returns the new columns under their names.
    @Test func aCachedStatementFollowsASchemaChange() async throws {
        try await Self.withDatabase { database, _ in
            try await database.sql.raw("INSERT INTO t (id, n) VALUES ('a', 1)").run()
            let before = try await database.sql.raw("SELECT * FROM t").first()
            #expect(before?.allColumns == ["id", "n", "f", "b", "s"])
            try await database.sql.raw("ALTER TABLE t ADD COLUMN added TEXT DEFAULT 'new'").run()
            let after = try #require(try await database.sql.raw("SELECT * FROM t").first())
            #expect(after.allColumns == ["id", "n", "f", "b", "s", "added"])
            #expect(try after.decode(column: "added", as: String.self) == "new")
            #expect(try after.decode(column: "n", as: Int64.self) == 1)
        }
    }

    @Test func aSessionDatabaseCannotBeUsedAfterItsSession() async throws {
        try await Self.withDatabase { database, _ in
            let leaked = try await database.sql.withSession { session in session }
            await #expect(throws: SQLiteStatementError.self) { try await leaked.raw("INSERT INTO t (id) VALUES ('late')").run() }
        }
    }

    /// Transactions that await between their statements, from many tasks at once: each sees its own reads and
    /// writes, none is lost, and nobody waits in SQLite's busy handler (the writer lock suspends instead).
    @Test func concurrentTransactionsThatAwaitAreSerialisedWithoutLoss() async throws {
        try await Self.withDatabase { database, _ in
            try await database.sql.raw("INSERT INTO t (id, n) VALUES ('counter', 0)").run()
            try await withThrowingTaskGroup(of: Void.self) { group in
                for _ in 0..<40 {
                    group.addTask {
                        try await database.transaction { session in
                            let value = try await session.raw("SELECT n FROM t WHERE id = 'counter'").first()?
                                .decode(column: "n", as: Int64.self) ?? -1
                            try await Task.sleep(for: .milliseconds(1))
                            try await session.raw("UPDATE t SET n = \(bind: value + 1) WHERE id = 'counter'").run()
                        }
                    }
                    group.addTask {
                        _ = try await database.sql.raw("SELECT n FROM t WHERE id = 'counter'").first()
                    }
                }
                try await group.waitForAll()
            }
            let final = try await database.sql.raw("SELECT n FROM t WHERE id = 'counter'").first()?.decode(column: "n", as: Int64.self)
            #expect(final == 40)
        }
    }

    @Test func twoDatabasesOnOneFileShareItAndOutliveEachOther() async throws {
        try await Self.withDatabase { database, path in
            let second = try TestDatabase.open(path: path)
            try await second.sql.raw("INSERT INTO t (id) VALUES ('from second')").run()
            let seen = try await database.sql.raw("SELECT id FROM t").first()?.decode(column: "id", as: String.self)
            #expect(seen == "from second")
            await second.close()
            // The first database still works after the second closed.
            try await database.sql.raw("INSERT INTO t (id) VALUES ('from first')").run()
            let count = try await database.sql.raw("SELECT COUNT(*) AS c FROM t").first()?.decode(column: "c", as: Int64.self)
            #expect(count == 2)
        }
    }

    @Test func aFileSQLiteCannotOpenIsAStatementError() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("holdfast-sqlite-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        // A directory where the database file should be.
        let path = folder.appendingPathComponent("dir.sqlite")
        try FileManager.default.createDirectory(at: path, withIntermediateDirectories: true)
        #expect(throws: SQLiteStatementError.self) { _ = try SQLiteFile.open(path: path.path) }
    }

    @Test func theAsyncLockHandsOverInArrivalOrder() async throws {
        let lock = AsyncLock()
        await lock.lock()
        let order = OrderRecorder()
        var waiters: [Task<Void, Never>] = []
        for index in 0..<5 {
            waiters.append(Task {
                await lock.lock()
                await order.append(index)
                lock.unlock()
            })
            // Let each waiter queue before the next one starts.
            while lock.waiting < index + 1 { await Task.yield() }
        }
        lock.unlock()
        for waiter in waiters { await waiter.value }
        #expect(await order.values == [0, 1, 2, 3, 4])
    }
}

private actor OrderRecorder {
    var values: [Int] = []
    func append(_ value: Int) { values.append(value) }
}
