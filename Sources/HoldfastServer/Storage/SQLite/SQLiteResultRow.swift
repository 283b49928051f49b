import SQLiteKit
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
    /// Creating a decoder creates a `JSONDecoder`: one is shared.
    private static let decoder = SQLiteDataDecoder()

    let columns: SQLiteColumns
    let values: [SQLiteData]

    var allColumns: [String] { columns.names }

    func contains(column: String) -> Bool { columns.index(of: column) != nil }

    func decodeNil(column: String) throws -> Bool {
        guard let index = columns.index(of: column) else { return true }
        return values[index] == .null
    }

    func decode<D: Decodable>(column: String, as type: D.Type) throws -> D {
        guard let index = columns.index(of: column) else { throw SQLiteMissingColumn(column: column) }
        let value = values[index]
        // The types the schema uses, without a decoder; everything else through sqlite-kit's decoder.
        switch value {
        case .text(let text) where D.self == String.self:
            return text as! D
        case .integer(let integer) where D.self == Int64.self:
            return Int64(integer) as! D
        case .integer(let integer) where D.self == Int.self:
            return Int(integer) as! D
        default:
            return try Self.decoder.decode(D.self, from: value)
        }
    }
}

/// A row was asked for a column its statement does not return.
struct SQLiteMissingColumn: Error, CustomStringConvertible {
    let column: String
    var description: String { "no column \(column) in the result" }
}
