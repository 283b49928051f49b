import CBOR
import Foundation

/// RFC 9110 §5.6.7 HTTP-date in the IMF-fixdate form (`Sun, 06 Nov 1994 08:49:37 GMT`), for the `Date` header
/// from which the SDK learns its clock offset. Parsing accepts only IMF-fixdate (what every current server sends).
public enum HTTPDate {
    private static let weekdays = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// Formats `date` (whole seconds, rounded down) by `CivilTime` arithmetic: this runs for every response.
    public static func format(_ date: Date) -> String {
        let seconds = Int64(date.timeIntervalSince1970.rounded(.down))
        // 1970-01-01 was a Thursday.
        let weekday = weekdays[Int(CivilTime.floorDivide(CivilTime.floorDivide(seconds, by: 86_400).quotient + 4, by: 7).remainder)]
        let fields = CivilTime.fields(secondsSince1970: seconds)
        var text = Array(weekday.utf8) + Array(", ".utf8)
        CivilTime.append(Int64(fields.day), width: 2, to: &text)
        text += Array((" " + months[fields.month - 1] + " ").utf8)
        CivilTime.append(fields.year, width: 4, to: &text)
        text.append(UInt8(ascii: " "))
        CivilTime.appendClock(fields, to: &text)
        text += Array(" GMT".utf8)
        return String(decoding: text, as: UTF8.self)
    }

    /// Parses an IMF-fixdate; a second of 60 or a day the month does not have is refused. Runs on every response
    /// the SDK reads, so by `CivilTime` arithmetic too.
    public static func parse(_ text: String) -> Date? {
        // "Sun, 06 Nov 1994 08:49:37 GMT"
        let fields = text.split(separator: " ")
        guard text.utf8.count == 29, fields.count == 6, fields[0].count == 4, fields[0].hasSuffix(","),
              weekdays.contains(String(fields[0].dropLast())), fields[5] == "GMT",
              let day = Int(fields[1]), fields[1].count == 2,
              let monthIndex = months.firstIndex(of: String(fields[2])),
              let year = Int(fields[3]), fields[3].count == 4 else { return nil }
        let time = fields[4].split(separator: ":")
        guard time.count == 3, time.allSatisfy({ $0.count == 2 }), let hour = Int(time[0]), let minute = Int(time[1]),
              let second = Int(time[2]),
              let seconds = CivilTime.secondsSince1970(.init(year: Int64(year), month: monthIndex + 1, day: day, hour: hour,
                                                             minute: minute, second: second)) else { return nil }
        return Date(timeIntervalSince1970: TimeInterval(seconds))
    }
}
