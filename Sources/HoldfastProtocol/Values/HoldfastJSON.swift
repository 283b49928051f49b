import CBOR
import Foundation

/// The JSON encoder and decoder both ends of the tenant API use (DESIGN.md §4 "JSON").
///
/// - Field names are camelCase exactly as the types declare them (no key strategy).
/// - Dates are ISO 8601 / RFC 3339 strings in UTC with a `Z` suffix and whole seconds, e.g.
///   `"2026-11-23T09:05:33Z"` (`Date.ISO8601FormatStyle`). Decoding also accepts fractional seconds
///   (`"2026-11-23T09:05:33.250Z"`) so that a client written in another language may send them.
/// - Output keys are sorted, so the same value always encodes to the same bytes.
/// - JWT claims are not affected: tokens carry NumericDate seconds (RFC 7519 §2) through JOSE.
public enum HoldfastJSON {
    /// A new encoder configured for the wire, for a caller that wants to change its options (`encode` uses one
    /// shared encoder: encoding does not change an encoder's state).
    public static var encoder: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(formatDate(date))
        }
        return encoder
    }

    /// A new decoder configured for the wire (`decode` uses one shared decoder).
    public static var decoder: JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .custom { decoder in
            let container = try decoder.singleValueContainer()
            let text = try container.decode(String.self)
            guard let date = parseDate(text) else {
                throw DecodingError.dataCorruptedError(in: container,
                                                       debugDescription: "not an ISO 8601 UTC date: \(text)")
            }
            return date
        }
        return decoder
    }

    // One of each for `encode` / `decode`: their options never change, and making them costs more than encoding a
    // small body.
    private static let sharedEncoder = encoder
    private static let sharedDecoder = decoder

    /// Encodes `value` with `encoder`.
    public static func encode(_ value: some Encodable) throws -> Data {
        try sharedEncoder.encode(value)
    }

    /// Decodes `type` from `data` with `decoder`.
    public static func decode<T: Decodable>(_ type: T.Type, from data: Data) throws -> T {
        try sharedDecoder.decode(type, from: data)
    }

    /// `2026-11-23T09:05:33Z`: UTC, whole seconds (sub-second parts are truncated). Years 1583…9999 by arithmetic
    /// on the Gregorian calendar; others by Foundation's format style, which switches to the Julian calendar before
    /// the 1582 reform and spells years past 9999 its own way, so that every date is written as it always was.
    public static func formatDate(_ date: Date) -> String {
        let seconds = Int64(date.timeIntervalSince1970.rounded(.down))
        let fields = CivilTime.fields(secondsSince1970: seconds)
        guard (canonicalYears).contains(fields.year) else {
            return Date(timeIntervalSince1970: TimeInterval(seconds))
                .formatted(Date.ISO8601FormatStyle(timeZone: TimeZone(identifier: "UTC") ?? .gmt))
        }
        var text: [UInt8] = []
        text.reserveCapacity(20)
        CivilTime.append(fields.year, width: 4, to: &text)
        text.append(UInt8(ascii: "-"))
        CivilTime.append(Int64(fields.month), width: 2, to: &text)
        text.append(UInt8(ascii: "-"))
        CivilTime.append(Int64(fields.day), width: 2, to: &text)
        text.append(UInt8(ascii: "T"))
        CivilTime.appendClock(fields, to: &text)
        text.append(UInt8(ascii: "Z"))
        return String(decoding: text, as: UTF8.self)
    }

    /// Parses an RFC 3339 date-time in UTC (`Z`), with or without fractional seconds; `nil` otherwise. The form
    /// this module writes (`YYYY-MM-DDTHH:MM:SSZ`, years 1583…9999, with up to 9 fraction digits) is read by
    /// arithmetic; anything else goes to Foundation's format styles, which decide.
    public static func parseDate(_ text: String) -> Date? {
        guard text.utf8.count <= 64, text.hasSuffix("Z") else { return nil }
        // A text of the canonical shape is decided by arithmetic: a day the month does not have, or 24:00, is
        // refused (Foundation's style would roll it over into the next month or day).
        switch parseCanonicalDate(Array(text.utf8)) {
        case .date(let date): return date
        case .invalid: return nil
        case .otherShape: break
        }
        if let date = try? Date.ISO8601FormatStyle().parse(text) { return date }
        return try? Date.ISO8601FormatStyle(includingFractionalSeconds: true).parse(text)
    }

    /// Years that `formatDate` / `parseDate` handle by arithmetic: Gregorian, four digits.
    private static let canonicalYears: ClosedRange<Int64> = 1583...9999

    private enum CanonicalDate {
        case date(Date)
        /// The canonical shape, but not a real UTC time.
        case invalid
        /// Not `YYYY-MM-DDTHH:MM:SS[.f…]Z` with a year in `canonicalYears`.
        case otherShape
    }

    private static func parseCanonicalDate(_ bytes: [UInt8]) -> CanonicalDate {
        guard bytes.count >= 20, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"), bytes[10] == UInt8(ascii: "T"),
              bytes[13] == UInt8(ascii: ":"), bytes[16] == UInt8(ascii: ":"), bytes.last == UInt8(ascii: "Z"),
              let year = CivilTime.digits(bytes, 0, 4), canonicalYears.contains(Int64(year)),
              let month = CivilTime.digits(bytes, 5, 2), let day = CivilTime.digits(bytes, 8, 2),
              let hour = CivilTime.digits(bytes, 11, 2), let minute = CivilTime.digits(bytes, 14, 2),
              let second = CivilTime.digits(bytes, 17, 2) else { return .otherShape }
        var fraction = 0.0
        if bytes.count > 20 {
            // ".d…dZ": 1 to 9 digits.
            let digitCount = bytes.count - 21
            guard bytes[19] == UInt8(ascii: "."), (1...9).contains(digitCount),
                  let value = CivilTime.digits(bytes, 20, digitCount) else { return .otherShape }
            fraction = Double(value) / pow(10, Double(digitCount))
        }
        guard let seconds = CivilTime.secondsSince1970(.init(year: Int64(year), month: month, day: day, hour: hour,
                                                             minute: minute, second: second)) else { return .invalid }
        return .date(Date(timeIntervalSince1970: TimeInterval(seconds) + fraction))
    }
}
