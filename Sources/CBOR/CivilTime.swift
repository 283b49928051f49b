import Foundation

/// Proleptic Gregorian dates in UTC by arithmetic (the era-of-400-years method: 146,097 days an era, years counted
/// from March so that the leap day comes last). `Calendar`, `DateComponents` and the ISO 8601 format styles cost
/// more than the rest of a small request's bookkeeping; the wire formats here only ever need UTC. Here beside the
/// codec because RFC 8949 §3.4.1 date-time strings (tag 0) are CBOR's own; the tenant API's JSON dates
/// (`HoldfastJSON`, `HTTPDate`) and the MSO's `tdate` (`MDocDate`) use it alike.
public enum CivilTime {
    public struct Fields: Equatable, Sendable {
        public var year: Int64
        public var month: Int
        public var day: Int
        public var hour: Int
        public var minute: Int
        public var second: Int

        public init(year: Int64, month: Int, day: Int, hour: Int, minute: Int, second: Int) {
            self.year = year
            self.month = month
            self.day = day
            self.hour = hour
            self.minute = minute
            self.second = second
        }
    }

    /// The UTC fields of `seconds` since 1970-01-01T00:00:00Z.
    public static func fields(secondsSince1970 seconds: Int64) -> Fields {
        let (days, secondOfDay) = floorDivide(seconds, by: 86_400)
        let shifted = days + 719_468  // days from 0000-03-01 to 1970-01-01
        let (era, dayOfEra) = floorDivide(shifted, by: 146_097)
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthFromMarch = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthFromMarch + 2) / 5 + 1
        let month = monthFromMarch < 10 ? monthFromMarch + 3 : monthFromMarch - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        return Fields(year: year, month: Int(month), day: Int(day), hour: Int(secondOfDay / 3600),
                      minute: Int(secondOfDay / 60 % 60), second: Int(secondOfDay % 60))
    }

    /// Seconds since 1970 of valid UTC fields (month 1…12, day within the month, hour < 24, minute < 60,
    /// second < 60); nil for anything else.
    public static func secondsSince1970(_ fields: Fields) -> Int64? {
        guard (1...12).contains(fields.month), fields.day >= 1, fields.day <= daysIn(month: fields.month, year: fields.year),
              (0..<24).contains(fields.hour), (0..<60).contains(fields.minute), (0..<60).contains(fields.second)
        else { return nil }
        let year = fields.month <= 2 ? fields.year - 1 : fields.year
        let (era, yearOfEra) = floorDivide(year, by: 400)
        let month = Int64(fields.month)
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + Int64(fields.day) - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        let days = era * 146_097 + dayOfEra - 719_468
        return days * 86_400 + Int64(fields.hour * 3600 + fields.minute * 60 + fields.second)
    }

    public static func daysIn(month: Int, year: Int64) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Appends `value` in decimal, zero-padded to `width` digits (`value` ≥ 0).
    public static func append(_ value: Int64, width: Int, to bytes: inout [UInt8]) {
        var digits: [UInt8] = []
        var rest = value
        repeat {
            digits.append(UInt8(ascii: "0") + UInt8(rest % 10))
            rest /= 10
        } while rest > 0
        if digits.count < width { bytes.append(contentsOf: repeatElement(UInt8(ascii: "0"), count: width - digits.count)) }
        bytes.append(contentsOf: digits.reversed())
    }

    /// Appends `HH:MM:SS`.
    public static func appendClock(_ fields: Fields, to bytes: inout [UInt8]) {
        append(Int64(fields.hour), width: 2, to: &bytes)
        bytes.append(UInt8(ascii: ":"))
        append(Int64(fields.minute), width: 2, to: &bytes)
        bytes.append(UInt8(ascii: ":"))
        append(Int64(fields.second), width: 2, to: &bytes)
    }

    /// The value of `count` ASCII digits at `offset` of `bytes`, or nil if one is not a digit.
    public static func digits(_ bytes: [UInt8], _ offset: Int, _ count: Int) -> Int? {
        guard offset >= 0, offset + count <= bytes.count else { return nil }
        var value = 0
        for byte in bytes[offset..<(offset + count)] {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
            value = value * 10 + Int(byte - UInt8(ascii: "0"))
        }
        return value
    }

    /// Quotient and remainder rounded towards negative infinity (the remainder is never negative).
    public static func floorDivide(_ value: Int64, by divisor: Int64) -> (quotient: Int64, remainder: Int64) {
        let (quotient, remainder) = value.quotientAndRemainder(dividingBy: divisor)
        return remainder < 0 ? (quotient - 1, remainder + divisor) : (quotient, remainder)
    }
}
