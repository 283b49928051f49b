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

    /// Formats `date` (whole seconds, rounded down) by calendar arithmetic on the proleptic Gregorian calendar in
    /// UTC: this runs for every response, and `Calendar` plus `String(format:)` cost more than the rest of a small
    /// request's bookkeeping.
    public static func format(_ date: Date) -> String {
        let seconds = Int64(date.timeIntervalSince1970.rounded(.down))
        let (days, secondOfDay) = seconds.floorDivided(by: 86_400)
        let weekday = weekdays[Int((days + 4).floorDivided(by: 7).remainder)]  // 1970-01-01 was a Thursday
        let (year, month, day) = civilDate(daysSinceEpoch: days)
        var text = weekday + ", "
        append(day, width: 2, to: &text)
        text += " " + months[month - 1] + " "
        append(year, width: 4, to: &text)
        text += " "
        append(secondOfDay / 3600, width: 2, to: &text)
        text += ":"
        append(secondOfDay / 60 % 60, width: 2, to: &text)
        text += ":"
        append(secondOfDay % 60, width: 2, to: &text)
        return text + " GMT"
    }

    private static func append(_ number: Int64, width: Int, to text: inout String) {
        let digits = String(number)
        if digits.count < width { text += String(repeating: "0", count: width - digits.count) }
        text += digits
    }

    /// Year, month (1…12) and day of the proleptic Gregorian date `days` after 1970-01-01 (the well-known
    /// era-of-400-years method: 146,097 days an era, years counted from March so that the leap day comes last).
    private static func civilDate(daysSinceEpoch days: Int64) -> (year: Int64, month: Int, day: Int64) {
        let shifted = days + 719_468  // days from 0000-03-01 to 1970-01-01
        let (era, dayOfEra) = shifted.floorDivided(by: 146_097)
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthFromMarch = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthFromMarch + 2) / 5 + 1
        let month = monthFromMarch < 10 ? monthFromMarch + 3 : monthFromMarch - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        return (year, Int(month), day)
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

private extension Int64 {
    /// Quotient and remainder rounded towards negative infinity (the remainder is never negative).
    func floorDivided(by divisor: Int64) -> (quotient: Int64, remainder: Int64) {
        let (quotient, remainder) = quotientAndRemainder(dividingBy: divisor)
        return remainder < 0 ? (quotient - 1, remainder + divisor) : (quotient, remainder)
    }
}
