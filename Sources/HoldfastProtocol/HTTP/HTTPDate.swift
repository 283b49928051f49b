import Foundation

/// RFC 9110 §5.6.7 HTTP-date in the IMF-fixdate form (`Sun, 06 Nov 1994 08:49:37 GMT`), for the `Date` header
/// from which the SDK learns its clock offset. Parsing accepts only IMF-fixdate (what every current server sends).
public enum HTTPDate {
    private static let weekdays = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    private static var utcCalendar: Calendar {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? .gmt
        return calendar
    }

    public static func format(_ date: Date) -> String {
        let parts = utcCalendar.dateComponents([.year, .month, .day, .hour, .minute, .second, .weekday], from: date)
        let weekday = weekdays[((parts.weekday ?? 1) - 1) % 7]
        let month = months[((parts.month ?? 1) - 1) % 12]
        return String(format: "%@, %02d %@ %04d %02d:%02d:%02d GMT", weekday, parts.day ?? 1, month, parts.year ?? 1970,
                      parts.hour ?? 0, parts.minute ?? 0, parts.second ?? 0)
    }

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
              let second = Int(time[2]), hour < 24, minute < 60, second < 61 else { return nil }
        var components = DateComponents()
        components.year = year
        components.month = monthIndex + 1
        components.day = day
        components.hour = hour
        components.minute = minute
        components.second = second
        guard let date = utcCalendar.date(from: components),
              utcCalendar.component(.day, from: date) == day else { return nil }
        return date
    }
}
