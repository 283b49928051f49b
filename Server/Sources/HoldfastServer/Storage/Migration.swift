import Foundation

/// One step of the schema, applied once per database and recorded in `schema_migrations`
/// (`version`, `name`, `applied_at`).
///
/// Write SQL that both SQLite and PostgreSQL accept (TEXT, BIGINT, INTEGER, `CREATE … IF NOT EXISTS`, partial
/// unique indexes all work on both); where they differ (binary columns: BLOB / BYTEA), give a per-dialect
/// variant. Times are stored as BIGINT milliseconds since 1970 so that both dialects compare them the same way.
public struct Migration: Sendable {
    /// Unique and positive; migrations run in ascending order. Each capability owns a block of 100
    /// (see `HoldfastMigrations`), so that capabilities developed side by side never collide.
    public let version: Int
    public let name: String
    private let sqlite: [String]
    private let postgresql: [String]
    /// What SQL alone cannot do, run in the migration's transaction after its statements: rows rewritten with what
    /// the server keeps outside the database (`MigrationKeys`), such as a value kept in clear sealed with the master key.
    let rows: RowStep?

    public typealias RowStep = @Sendable (_ session: HoldfastDatabase.Session, _ keys: MigrationKeys) async throws -> Void

    /// The same statements on both dialects.
    public init(version: Int, name: String, sql: [String], rows: RowStep? = nil) {
        self.init(version: version, name: name, sqlite: sql, postgresql: sql, rows: rows)
    }

    /// Different statements per dialect.
    public init(version: Int, name: String, sqlite: [String], postgresql: [String], rows: RowStep? = nil) {
        self.version = version
        self.name = name
        self.sqlite = sqlite
        self.postgresql = postgresql
        self.rows = rows
    }

    public func statements(for dialect: HoldfastDatabase.Dialect) -> [String] {
        switch dialect {
        case .sqlite: sqlite
        case .postgresql: postgresql
        }
    }
}

/// What a migration's row step may use besides the database: the master key (DESIGN.md §4 "Keys"), loaded only when a
/// step has rows to seal, so that migrating a database with nothing to seal never needs it.
public struct MigrationKeys: Sendable {
    private let loadMasterKey: @Sendable () throws -> MasterKey

    public init(masterKey: @escaping @Sendable () throws -> MasterKey) {
        self.loadMasterKey = masterKey
    }

    /// The master key, or `MIGRATION_FAILED` naming `version` when it cannot be had.
    func masterKey(for version: Int) throws -> MasterKey {
        do {
            return try loadMasterKey()
        } catch {
            throw StorageError(code: StorageError.Code.migrationFailed,
                               message: "migration \(version) seals stored values with the master key, which is not available: \(error)")
        }
    }

    /// No key: a migration that needs one fails (`MIGRATION_FAILED`) instead of leaving a value in clear.
    public static let unavailable = MigrationKeys {
        throw KeyError.masterKeyUnusable("no master key was given to the migrations")
    }

    /// The key of `source` as the server loads it, except that a key file that does not exist is not created (a
    /// tool migrating a tenant whose key lives elsewhere must not seal with a new one).
    public static func existing(_ source: HoldfastConfiguration.MasterKeySource) -> MigrationKeys {
        MigrationKeys {
            if case .file(let path) = source, !FileManager.default.fileExists(atPath: path) {
                throw KeyError.masterKeyUnusable("the master key file \(path) does not exist")
            }
            return try MasterKey.load(source)
        }
    }
}
