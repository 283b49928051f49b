import Foundation
import SQLKit
import SQLiteStorage
import Testing

/// How Swift values become SQLite storage classes and back (sqlite.org/datatype3.html §2), and how sql-kit writes
/// SQL for SQLite.
struct SQLiteValueTests {
    struct Settings: Codable, Equatable {
        var name: String
        var limits: [Int]
    }

    enum Channel: String, Codable {
        case production, staging
    }

    @Test func scalarsTakeTheirStorageClass() throws {
        #expect(try SQLiteValue(encoding: Int64(-7)) == .integer(-7))
        #expect(try SQLiteValue(encoding: 42) == .integer(42))
        #expect(try SQLiteValue(encoding: Int32(5)) == .integer(5))
        #expect(try SQLiteValue(encoding: true) == .integer(1))
        #expect(try SQLiteValue(encoding: false) == .integer(0))
        #expect(try SQLiteValue(encoding: 1.5) == .float(1.5))
        #expect(try SQLiteValue(encoding: "héllo") == .text("héllo"))
        #expect(try SQLiteValue(encoding: [UInt8]([0, 255])) == .blob([0, 255]))
        #expect(try SQLiteValue(encoding: Data([1, 2])) == .blob([1, 2]))
        #expect(try SQLiteValue(encoding: Channel.staging) == .text("staging"))
        let uuid = UUID()
        #expect(try SQLiteValue(encoding: uuid) == .text(uuid.uuidString.lowercased()))
    }

    @Test func nilIsNull() throws {
        let none: String? = nil
        #expect(try SQLiteValue(encoding: none) == .null)
        let some: String? = "x"
        #expect(try SQLiteValue(encoding: some) == .text("x"))
    }

    @Test func nestedValuesAreJSONText() throws {
        let settings = Settings(name: "a", limits: [1, 2])
        let value = try SQLiteValue(encoding: settings)
        guard case .text(let json) = value else { Issue.record("not text: \(value)"); return }
        #expect(try JSONDecoder().decode(Settings.self, from: Data(json.utf8)) == settings)
        #expect(try value.decode(Settings.self) == settings)
    }

    @Test func aValueTooLargeForAnIntegerIsRefused() {
        #expect(throws: SQLiteValueError.self) { try SQLiteValue(encoding: UInt64.max) }
    }

    @Test func storedValuesDecodeBack() throws {
        #expect(try SQLiteValue.text("s").decode(String.self) == "s")
        #expect(try SQLiteValue.integer(9).decode(Int64.self) == 9)
        #expect(try SQLiteValue.integer(9).decode(Int.self) == 9)
        #expect(try SQLiteValue.integer(9).decode(UInt8.self) == 9)
        #expect(try SQLiteValue.integer(1).decode(Bool.self) == true)
        #expect(try SQLiteValue.integer(3).decode(Double.self) == 3)
        #expect(try SQLiteValue.float(2.5).decode(Double.self) == 2.5)
        #expect(try SQLiteValue.blob([7]).decode([UInt8].self) == [7])
        #expect(try SQLiteValue.blob([7]).decode(Data.self) == Data([7]))
        #expect(try SQLiteValue.null.decode(String?.self) == nil)
        #expect(try SQLiteValue.text("x").decode(String?.self) == "x")
        #expect(try SQLiteValue.text("production").decode(Channel.self) == .production)
    }

    @Test func aMismatchIsADecodingErrorNotATrap() {
        #expect(throws: DecodingError.self) { try SQLiteValue.text("x").decode(Int64.self) }
        #expect(throws: DecodingError.self) { try SQLiteValue.integer(2).decode(Bool.self) }
        #expect(throws: DecodingError.self) { try SQLiteValue.integer(300).decode(UInt8.self) }
        #expect(throws: DecodingError.self) { try SQLiteValue.null.decode(String.self) }
        #expect(throws: (any Error).self) { try SQLiteValue.text("not json").decode(Settings.self) }
    }

    @Test func theDialectWritesSQLiteSQL() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("holdfast-sqlite-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let database = try SQLiteFileDatabaseTests.TestDatabase.open(path: folder.appendingPathComponent("d.sqlite").path)
        defer { Task { await database.close() } }
        let builder = database.sql.select().column("id").from("t").where("id", .equal, "x")
        var serializer = SQLSerializer(database: database.sql)
        builder.query.serialize(to: &serializer)
        #expect(serializer.sql == #"SELECT "id" FROM "t" WHERE "id" = ?1"#)
        #expect(database.sql.dialect.supportsReturning)
        #expect(database.sql.dialect.name == "sqlite")
    }
}
