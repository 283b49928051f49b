import SQLKit

/// The column names of a prepared statement, shared by every row it returns.
final class SQLiteColumns: Sendable {
    let names: [String]
    private let indices: [String: Int]

    init(_ names: [String]) {
        self.names = names
        var indices: [String: Int] = [:]
        // With duplicate names (a join), the first column wins, as in sqlite-nio.
        for (index, name) in names.enumerated() where indices[name] == nil { indices[name] = index }
        self.indices = indices
    }

    func index(of name: String) -> Int? { indices[name] }
}

/// One result row, as sql-kit's `SQLRow`: values are copied out of SQLite when the row is read, so the row stays
/// valid after the statement moves on.
struct SQLiteResultRow: SQLRow, Sendable {
    let columns: SQLiteColumns
    let values: [SQLiteValue]

    var allColumns: [String] { columns.names }

    func contains(column: String) -> Bool { columns.index(of: column) != nil }

    func decodeNil(column: String) throws -> Bool {
        guard let index = columns.index(of: column) else { return true }
        return values[index] == .null
    }

    func decode<D: Decodable>(column: String, as type: D.Type) throws -> D {
        guard let index = columns.index(of: column) else { throw SQLiteMissingColumn(column: column) }
        return try values[index].decode(D.self)
    }
}

/// A row was asked for a column its statement does not return.
struct SQLiteMissingColumn: Error, CustomStringConvertible {
    let column: String
    var description: String { "no column \(column) in the result" }
}
