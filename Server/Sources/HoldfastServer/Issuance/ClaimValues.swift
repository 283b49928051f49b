import CBOR
import Foundation
import HoldfastProtocol
import JOSE

/// Claim values of an offer (docs/server-api.md "Credentials"), turned into the CBOR data elements of an mDoc (ISO/IEC 18013-5
/// §7.2). A value is plain JSON — strings, integers, numbers, booleans, null, arrays and objects map to their CBOR
/// counterparts — or one of the typed forms `{"$type": "full-date", "value": "2004-02-29"}` (tag 1004, RFC 8943),
/// `{"$type": "tdate", "value": "2026-01-01T00:00:00Z"}` (tag 0, RFC 8949 §3.4.1) and `{"$type": "bytes",
/// "value": "<standard base64>"}` (a byte string, how portraits are carried).
enum ClaimValues {
    static let typeKey = "$type"
    /// Nesting deeper than this is refused (a claim value is data, not a document).
    static let maximumDepth = 16

    /// The CBOR of `value`; `field` names it in the error.
    static func cbor(_ value: JSONValue, field: String, depth: Int = 0) throws -> CBOR {
        guard depth <= maximumDepth else {
            throw ProblemError.invalidField(field, code: ProblemDetails.FieldError.invalidValue,
                                            detail: "nested deeper than \(maximumDepth) levels")
        }
        switch value {
        case .null: return .null
        case .bool(let flag): return .bool(flag)
        case .integer(let number): return number >= 0 ? .unsigned(UInt64(number)) : .negative(UInt64(-(number + 1)))
        case .number(let number): return .float(number, .double)
        case .string(let text): return .text(text)
        case .array(let items):
            return .array(try items.enumerated().map { try cbor($1, field: "\(field)[\($0)]", depth: depth + 1) })
        case .object(let members):
            if let type = members[typeKey] { return try typed(type, members: members, field: field) }
            return .map(try members.sorted { $0.key < $1.key }.map { key, member in
                CBOR.Pair(.text(key), try cbor(member, field: "\(field).\(key)", depth: depth + 1))
            })
        }
    }

    private static func typed(_ type: JSONValue, members: [String: JSONValue], field: String) throws -> CBOR {
        func fail(_ detail: String) -> ProblemError {
            ProblemError.invalidField(field, code: ProblemDetails.FieldError.invalidValue, detail: detail)
        }
        guard members.count == 2, let text = members["value"]?.stringValue else {
            throw fail(#"a typed value is exactly {"$type": …, "value": "<string>"}"#)
        }
        switch type.stringValue {
        case "full-date":
            guard isFullDate(text) else { throw fail("a full-date is YYYY-MM-DD (RFC 3339)") }
            return .tagged(1004, .text(text))
        case "tdate":
            guard let date = (try? Date(text, strategy: Date.ISO8601FormatStyle()))
                ?? (try? Date(text, strategy: Date.ISO8601FormatStyle(includingFractionalSeconds: true))) else {
                throw fail("a tdate is an RFC 3339 date-time such as 2026-01-01T00:00:00Z")
            }
            // ISO/IEC 18013-5 §7.2.1: tdate without fractions of a second, in UTC.
            let whole = Date(timeIntervalSince1970: date.timeIntervalSince1970.rounded(.down))
            return .tagged(0, .text(whole.formatted(Date.ISO8601FormatStyle())))
        case "bytes":
            guard let data = Data(base64Encoded: text) else { throw fail("bytes are standard base64 with padding") }
            return .bytes(Array(data))
        default:
            throw fail(#"$type is one of "full-date", "tdate", "bytes""#)
        }
    }

    /// `YYYY-MM-DD`, a real calendar date.
    static func isFullDate(_ text: String) -> Bool {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
              parts.allSatisfy({ $0.allSatisfy { $0.isASCII && $0.isNumber } }),
              let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2]),
              (1...12).contains(month), day >= 1 else { return false }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        guard let first = calendar.date(from: DateComponents(year: year, month: month, day: 1)),
              let days = calendar.range(of: .day, in: .month, for: first) else { return false }
        return days.contains(day)
    }
}
