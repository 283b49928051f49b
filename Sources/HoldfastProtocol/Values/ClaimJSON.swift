import CBOR
import Foundation
import JOSE

/// mDoc element values as JSON, one form for the holder SDK and the verifier's results (docs/sdk.md "Holder: credentials",
/// "Verifier"): a full-date (tag 1004) as its `YYYY-MM-DD` text, a tdate (tag 0) as its RFC 3339 text, bytes as
/// `{"$type": "bytes", "value": <base64>}`, the rest as their JSON counterparts.
public enum ClaimJSON {
    public static func json(_ value: CBOR) -> JSONValue {
        switch value {
        case .unsigned(let number): number <= UInt64(Int64.max) ? .integer(Int64(number)) : .number(Double(number))
        case .negative(let number): number < UInt64(Int64.max) ? .integer(-1 - Int64(number)) : .number(-1 - Double(number))
        case .bytes(let bytes): typed("bytes", Data(bytes).base64EncodedString())
        case .text(let text): .string(text)
        case .array(let items): .array(items.map(json))
        case .map(let pairs):
            .object(Dictionary(pairs.map { (key(of: $0.key), json($0.value)) }, uniquingKeysWith: { first, _ in first }))
        case .tagged(1004, .text(let day)): .string(day)
        case .tagged(0, .text(let time)): .string(time)
        case .tagged(_, let inner): json(inner)
        case .bool(let flag): .bool(flag)
        case .null, .undefined: .null
        case .simple(let number): .integer(Int64(number))
        case .float(let number, _): .number(number)
        case .indefinite: .string(String(describing: value))
        }
    }

    private static func typed(_ type: String, _ value: String) -> JSONValue {
        .object(["$type": .string(type), "value": .string(value)])
    }

    private static func key(of value: CBOR) -> String {
        if case .text(let text) = value { return text }
        if case .unsigned(let number) = value { return String(number) }
        if case .negative(let number) = value { return "-\(number &+ 1)" }
        return String(describing: value)
    }
}
