import Foundation
import HoldfastProtocol
import Testing
import TestSupport

/// The SDK guide's "Error codes" table (docs/sdk.md "Error codes") has one row for every code `HoldfastError.code`
/// can carry — `HoldfastErrorCode.serverCodes` and `sdkCodes` — and no other, each with what it means and what the
/// app should do, as the OpenAPI coverage tests hold the routes to the API document.
@Suite struct SDKErrorCodeDocumentationTests {
    struct Row: Equatable {
        var line: Int
        var code: String
        var meaning: String
        var fix: String
    }

    struct TableError: Error, CustomStringConvertible {
        var description: String
    }

    /// The rows of the `## Error codes` section's table: `| `CODE` | meaning | fix |`.
    static func rows(ofGuide text: String) throws -> [Row] {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        guard let start = lines.firstIndex(of: "## Error codes") else { throw TableError(description: "no \"## Error codes\" section") }
        var rows: [Row] = []
        var index = start + 1
        while index < lines.count, !lines[index].hasPrefix("## ") {
            defer { index += 1 }
            let line = lines[index]
            guard line.hasPrefix("|") else { continue }
            let cells = cells(of: line)
            if cells.allSatisfy({ $0.allSatisfy { $0 == "-" || $0 == ":" } }) || cells.first == "code" { continue }
            guard cells.count == 3 else {
                throw TableError(description: "docs/sdk.md:\(index + 1): \(cells.count) cells, not 3 (code, meaning, fix)")
            }
            let code = cells[0]
            guard code.count > 2, code.hasPrefix("`"), code.hasSuffix("`") else {
                throw TableError(description: "docs/sdk.md:\(index + 1): the code \(code) is not in backticks")
            }
            rows.append(Row(line: index + 1, code: String(code.dropFirst().dropLast()), meaning: cells[1], fix: cells[2]))
        }
        return rows
    }

    /// A table row's cells, trimmed; `\|` is a pipe inside a cell.
    static func cells(of line: Substring) -> [String] {
        var cells: [String] = []
        var current = ""
        var escaped = false
        for character in line.dropFirst() {
            if escaped { current.append(character); escaped = false; continue }
            if character == "\\" { escaped = true; current.append(character); continue }
            if character == "|" { cells.append(current.trimmingCharacters(in: .whitespaces)); current = ""; continue }
            current.append(character)
        }
        if !current.trimmingCharacters(in: .whitespaces).isEmpty { cells.append(current.trimmingCharacters(in: .whitespaces)) }
        return cells
    }

    /// What is wrong with `rows` against the codes: a code without a row, a row twice, a row for no code, an
    /// empty cell.
    static func problems(rows: [Row], codes: Set<String>) -> [String] {
        var problems: [String] = []
        let counts = Dictionary(rows.map { ($0.code, 1) }, uniquingKeysWith: +)
        for code in codes.sorted() where counts[code] == nil { problems.append("\(code) has no row") }
        for (code, count) in counts.sorted(by: { $0.key < $1.key }) where count > 1 { problems.append("\(code) has \(count) rows") }
        for row in rows {
            if !codes.contains(row.code) { problems.append("line \(row.line): \(row.code) is not a code of HoldfastErrorCode") }
            if row.meaning.isEmpty { problems.append("line \(row.line): \(row.code) says nothing of what it means") }
            if row.fix.isEmpty { problems.append("line \(row.line): \(row.code) says nothing of what the app should do") }
        }
        return problems
    }

    static var allCodes: Set<String> {
        Set(HoldfastErrorCode.serverCodes.union(HoldfastErrorCode.sdkCodes).map(\.rawValue))
    }

    @Test func theGuidesTableHasOneRowPerCodeAndNoOther() throws {
        let guide = try String(contentsOf: TestEnvironment.repositoryRoot.appendingPathComponent("docs/sdk.md"), encoding: .utf8)
        let rows = try Self.rows(ofGuide: guide)
        #expect(rows.count == Self.allCodes.count)
        #expect(Self.problems(rows: rows, codes: Self.allCodes) == [])
    }

    /// The comparison can fail: a table with a stale row, a duplicate, an empty fix and a missing code is
    /// reported for each.
    @Test func aStaleDuplicateEmptyOrMissingRowIsReported() throws {
        let guide = """
        # Guide

        ## Error codes

        | code | what it means | what the app should do |
        |---|---|---|
        | `NETWORK_ERROR` | the tenant could not be reached | retry online |
        | `NETWORK_ERROR` | again | retry |
        | `NO_SUCH_CODE` | stale | remove it |
        | `NOT_CONFIGURED` | no configuration |  |

        ## Next

        | `IGNORED` | after the section | – |
        """
        let rows = try Self.rows(ofGuide: guide)
        #expect(rows.map(\.code) == ["NETWORK_ERROR", "NETWORK_ERROR", "NO_SUCH_CODE", "NOT_CONFIGURED"])
        #expect(Self.problems(rows: rows, codes: ["NETWORK_ERROR", "NOT_CONFIGURED", "WALLET_LOCKED"]) == [
            "WALLET_LOCKED has no row",
            "NETWORK_ERROR has 2 rows",
            "line 9: NO_SUCH_CODE is not a code of HoldfastErrorCode",
            "line 10: NOT_CONFIGURED says nothing of what the app should do",
        ])
    }
}
