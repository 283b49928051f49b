import CBOR
import Foundation

/// Reading helpers shared by the model types: every CBOR failure becomes ``MDocError/malformed(_:)`` naming the
/// structure and field (ISO/IEC 18013-5 §8.3.2.1.2 for the CDDL these follow).
enum MDocCBOR {
    static func decode(_ bytes: [UInt8], _ what: @autoclosure () -> String) throws(MDocError) -> CBOR.Decoded {
        do { return try CBOR.decode(bytes) } catch { throw .malformed("\(what()) is not CBOR: \(error)") }
    }

    static func field(_ map: CBOR.Decoded, _ key: String, in what: @autoclosure () -> String) throws(MDocError) -> CBOR.Decoded {
        guard map.majorType == 5 else { throw .malformed("\(what()) is \(map.kindDescription), not a map") }
        guard let value = map[key] else { throw .malformed("\(what()) has no \(key)") }
        return value
    }

    static func optionalField(_ map: CBOR.Decoded, _ key: String, in what: @autoclosure () -> String) throws(MDocError) -> CBOR.Decoded? {
        guard map.majorType == 5 else { throw .malformed("\(what()) is \(map.kindDescription), not a map") }
        return map[key]
    }

    static func text(_ item: CBOR.Decoded, _ what: @autoclosure () -> String) throws(MDocError) -> String {
        do { return try item.text() } catch { throw .malformed("\(what()) is \(item.kindDescription), not a text string") }
    }

    static func bytes(_ item: CBOR.Decoded, _ what: @autoclosure () -> String) throws(MDocError) -> [UInt8] {
        do { return Array(try item.bytes()) } catch { throw .malformed("\(what()) is \(item.kindDescription), not a byte string") }
    }

    static func unsigned(_ item: CBOR.Decoded, _ what: @autoclosure () -> String) throws(MDocError) -> UInt64 {
        guard item.majorType == 0 else { throw .malformed("\(what()) is \(item.kindDescription), not an unsigned integer") }
        do { return try item.uint64() } catch { throw .malformed("\(what()): \(error)") }
    }

    static func array(_ item: CBOR.Decoded, _ what: @autoclosure () -> String) throws(MDocError) -> [CBOR.Decoded] {
        do { return try item.array() } catch { throw .malformed("\(what()) is \(item.kindDescription), not an array") }
    }

    static func map(_ item: CBOR.Decoded, _ what: @autoclosure () -> String) throws(MDocError) -> [(key: CBOR.Decoded, value: CBOR.Decoded)] {
        do { return try item.map() } catch { throw .malformed("\(what()) is \(item.kindDescription), not a map") }
    }

    /// `#6.24(bstr .cbor X)`: the embedded item (its bytes stay positions in the received input).
    static func embedded(_ item: CBOR.Decoded, _ what: @autoclosure () -> String) throws(MDocError) -> CBOR.Decoded {
        guard item.majorType == 6 else { throw .malformed("\(what()) is \(item.kindDescription), not tag 24") }
        do { return try item.embedded() } catch { throw .malformed("\(what()): \(error)") }
    }

    /// `tdate` (RFC 8949 tag 0, RFC 3339 text).
    static func tdate(_ item: CBOR.Decoded, _ what: @autoclosure () -> String) throws(MDocError) -> Date {
        let content: CBOR.Decoded
        do { content = try item.content(ofTag: CBOR.Tag.dateTimeString) } catch {
            throw .malformed("\(what()) is \(item.kindDescription), not a tdate (tag 0)")
        }
        let text = try Self.text(content, what())
        guard let date = MDocDate.parseDateTime(text) else { throw .malformed("\(what()) \"\(text)\" is not an RFC 3339 date-time") }
        return date
    }
}

/// The two date forms of ISO/IEC 18013-5 (§7.2.1, §9.1.2.4): `tdate` (tag 0, RFC 3339 date-time; in the MSO without
/// fractional seconds and in UTC, "Z") and `full-date` (tag 1004, RFC 8943 `YYYY-MM-DD`).
public enum MDocDate {
    /// The MSO's form: whole seconds, `Z`.
    public static func format(_ date: Date) -> String {
        let seconds = Int64(date.timeIntervalSince1970.rounded(.down))
        return Date(timeIntervalSince1970: Double(seconds)).formatted(.iso8601.year().month().day()
            .dateSeparator(.dash).time(includingFractionalSeconds: false).timeSeparator(.colon).timeZone(separator: .omitted))
    }

    /// `tdate` as a CBOR item.
    public static func tdate(_ date: Date) -> CBOR { .tagged(CBOR.Tag.dateTimeString, .text(format(date))) }

    /// An RFC 3339 date-time, with or without fractional seconds, `Z` or a numeric offset.
    public static func parseDateTime(_ text: String) -> Date? {
        if let date = wholeSecondsUTC(text) { return date }
        if let date = try? Date(text, strategy: .iso8601) { return date }
        return try? Date(text, strategy: Date.ISO8601FormatStyle(includingFractionalSeconds: true))
    }

    /// The MSO's own form, `YYYY-MM-DDTHH:MM:SSZ`, read with `CivilTime` instead of a formatter (every presented
    /// credential carries three); nil for anything else, which the formatter then reads.
    static func wholeSecondsUTC(_ text: String) -> Date? {
        let bytes = Array(text.utf8)
        guard bytes.count == 20, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"), bytes[10] == UInt8(ascii: "T"),
              bytes[13] == UInt8(ascii: ":"), bytes[16] == UInt8(ascii: ":"), bytes[19] == UInt8(ascii: "Z"),
              let year = CivilTime.digits(bytes, 0, 4), let month = CivilTime.digits(bytes, 5, 2), let day = CivilTime.digits(bytes, 8, 2),
              let hour = CivilTime.digits(bytes, 11, 2), let minute = CivilTime.digits(bytes, 14, 2),
              let second = CivilTime.digits(bytes, 17, 2),
              let seconds = CivilTime.secondsSince1970(.init(year: Int64(year), month: month, day: day, hour: hour, minute: minute,
                                                             second: second)) else { return nil }
        return Date(timeIntervalSince1970: TimeInterval(seconds))
    }

    /// `full-date` (tag 1004) for a calendar day given as `YYYY-MM-DD`; nil when the text is not such a day.
    public static func fullDate(_ day: String) -> CBOR? {
        guard isFullDate(day) else { return nil }
        return .tagged(CBOR.Tag.fullDate, .text(day))
    }

    /// Whether `text` is an RFC 3339 `full-date` that names a real day.
    public static func isFullDate(_ text: String) -> Bool {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
              parts.allSatisfy({ $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }),
              let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2]),
              (1...12).contains(month), day >= 1 else { return false }
        let leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
        let days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]
        return day <= days
    }
}
