import CSQLite
import SQLKit

/// How sql-kit writes SQL for SQLite (sqlite.org/lang.html): `"identifiers"`, `'strings'`, `?N` placeholders,
/// `RETURNING` and `ON CONFLICT` upserts (SQLite 3.35 and 3.24; Debian 12 has 3.40, the oldest supported Apple
/// systems newer), no enum types, JSON subpaths through `json_extract`.
public struct SQLiteSQLDialect: SQLDialect {
    public init() {}

    public var name: String { "sqlite" }
    public var identifierQuote: any SQLExpression { SQLRaw(#"""#) }
    public var literalStringQuote: any SQLExpression { SQLRaw("'") }
    public func bindPlaceholder(at position: Int) -> any SQLExpression { SQLRaw("?\(position)") }
    public func literalBoolean(_ value: Bool) -> any SQLExpression { SQLRaw(value ? "TRUE" : "FALSE") }
    public var literalDefault: any SQLExpression { SQLLiteral.null }
    public var supportsIfExists: Bool { true }
    public var supportsDropBehavior: Bool { false }
    public var supportsAutoIncrement: Bool { false }
    public var autoIncrementClause: any SQLExpression { SQLRaw("AUTOINCREMENT") }
    public var enumSyntax: SQLEnumSyntax { .unsupported }
    public var triggerSyntax: SQLTriggerSyntax {
        .init(create: [.supportsBody, .supportsCondition, .supportsUpdateColumns], drop: [])
    }
    public var alterTableSyntax: SQLAlterTableSyntax { .init(allowsBatch: false) }
    public var upsertSyntax: SQLUpsertSyntax { Self.libraryVersion >= 3_024_000 ? .standard : .unsupported }
    public var supportsReturning: Bool { Self.libraryVersion >= 3_035_000 }
    public var unionFeatures: SQLUnionFeatures { [.union, .unionAll, .intersect, .except] }

    /// A 64-bit integer is SQLite's INTEGER (which also keeps an INTEGER PRIMARY KEY the rowid).
    public func customDataType(for dataType: SQLDataType) -> (any SQLExpression)? {
        if case .bigint = dataType { return SQLDataType.int }
        return nil
    }

    public func nestedSubpathExpression(in column: any SQLExpression, for path: [String]) -> (any SQLExpression)? {
        guard !path.isEmpty else { return nil }
        return SQLFunction("json_extract", args: [column, SQLLiteral.string("$.\(path.joined(separator: "."))")])
    }

    /// The linked library's version as `X * 1_000_000 + Y * 1_000 + Z` (sqlite.org/c3ref/libversion.html).
    static let libraryVersion = Int(sqlite3_libversion_number())
}
