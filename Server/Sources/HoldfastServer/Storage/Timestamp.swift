import Foundation

/// Milliseconds since 1970, the one time representation in the schema and the ephemeral store's values; every
/// conversion to and from it goes through here (rounded down, so a stored instant is never later than the real one).
enum Timestamp {
    static func milliseconds(_ date: Date) -> Int64 { Int64((date.timeIntervalSince1970 * 1000).rounded(.down)) }

    static func date(_ milliseconds: Int64) -> Date { Date(timeIntervalSince1970: Double(milliseconds) / 1000) }

    /// The last millisecond of the whole second `date` falls in: when an item dated in whole seconds (a JWT `iat`)
    /// was made at the latest, for the ephemeral store's epoch check (docs/operations.md "A store that lost its memory").
    static func latestMillisecond(ofSecond date: Date) -> Int64 {
        Int64(date.timeIntervalSince1970.rounded(.down)) * 1000 + 999
    }
}
