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

    /// The same statements on both dialects.
    public init(version: Int, name: String, sql: [String]) {
        self.init(version: version, name: name, sqlite: sql, postgresql: sql)
    }

    /// Different statements per dialect.
    public init(version: Int, name: String, sqlite: [String], postgresql: [String]) {
        self.version = version
        self.name = name
        self.sqlite = sqlite
        self.postgresql = postgresql
    }

    public func statements(for dialect: HoldfastDatabase.Dialect) -> [String] {
        switch dialect {
        case .sqlite: sqlite
        case .postgresql: postgresql
        }
    }
}
