import Foundation
import Logging
import SQLKit

/// Applies `Migration`s that a database has not seen, each in its own transaction with its
/// `schema_migrations` row, so a failure leaves the database at the last complete version. Running it again
/// is a no-op. `HoldfastApplication` runs it under the start-up lock (two PostgreSQL nodes starting at once
/// take turns); the re-check inside each transaction also keeps two SQLite processes from applying one twice.
public struct Migrator: Sendable {
    public let migrations: [Migration]

    /// Checks the list: versions positive and unique.
    public init(migrations: [Migration]) throws(StorageError) {
        var seen = Set<Int>()
        for migration in migrations {
            guard migration.version > 0, seen.insert(migration.version).inserted else {
                throw StorageError(code: StorageError.Code.invalidMigrations,
                                   message: "migration version \(migration.version) (\(migration.name)) is not positive or not unique")
            }
        }
        self.migrations = migrations.sorted { $0.version < $1.version }
    }

    /// Applies what is pending on `session` (one connection), each recorded as applied at `now`; returns the
    /// migrations it applied.
    @discardableResult
    public func migrate(_ session: any SQLDatabase, dialect: HoldfastDatabase.Dialect, now: Date,
                        logger: Logger, keys: MigrationKeys = .unavailable) async throws -> [Migration] {
        try await session.raw("""
            CREATE TABLE IF NOT EXISTS schema_migrations (
                version BIGINT PRIMARY KEY,
                name TEXT NOT NULL,
                applied_at BIGINT NOT NULL
            )
            """).run()
        let applied = try await Self.appliedVersions(session)
        let known = Set(migrations.map(\.version))
        for unknown in applied.subtracting(known).sorted() {
            logger.warning("database has a migration this server does not know; a newer server may have written it",
                           metadata: ["version": "\(unknown)"])
        }
        let appliedAt = Timestamp.milliseconds(now)
        var done: [Migration] = []
        for migration in migrations where !applied.contains(migration.version) {
            let ran = try await HoldfastDatabase.transaction(on: session, dialect: dialect) { session in
                guard try await !Self.appliedVersions(session).contains(migration.version) else { return false }
                for statement in migration.statements(for: dialect) {
                    try await session.raw(SQLQueryString(statement)).run()
                }
                try await migration.rows?(session, keys)
                try await session.insert(into: "schema_migrations")
                    .columns("version", "name", "applied_at")
                    .values(SQLBind(Int64(migration.version)), SQLBind(migration.name), SQLBind(appliedAt))
                    .run()
                return true
            }
            if ran {
                logger.debug("applied migration", metadata: ["version": "\(migration.version)", "name": "\(migration.name)"])
                done.append(migration)
            }
        }
        // One line at start-up, not one per migration: a fresh tenant applies dozens, and `holdfast serve` must not
        // bury its bootstrap admin key under them.
        if let first = done.first, let last = done.last {
            logger.info("applied migrations", metadata: ["count": "\(done.count)", "first": "\(first.version)", "last": "\(last.version)"])
        }
        return done
    }

    /// Whether `database` has a migration recorded, asked without creating anything (no `schema_migrations` table
    /// is a database no Holdfast server has prepared).
    public static func hasApplied(_ database: any SQLDatabase, dialect: HoldfastDatabase.Dialect) async throws -> Bool {
        let table: String = switch dialect {
        case .sqlite:
            "SELECT count(*) AS n FROM sqlite_master WHERE type = 'table' AND name = 'schema_migrations'"
        case .postgresql:
            "SELECT count(*) AS n FROM information_schema.tables WHERE table_schema = current_schema() AND table_name = 'schema_migrations'"
        }
        guard let row = try await database.raw(SQLQueryString(table)).first(),
              try row.decode(column: "n", as: Int.self) > 0 else { return false }
        return try await !appliedVersions(database).isEmpty
    }

    /// The versions recorded in `schema_migrations`.
    public static func appliedVersions(_ database: any SQLDatabase) async throws -> Set<Int> {
        let rows = try await database.select().column("version").from("schema_migrations").all()
        return Set(try rows.map { Int(try $0.decode(column: "version", as: Int64.self)) })
    }
}
