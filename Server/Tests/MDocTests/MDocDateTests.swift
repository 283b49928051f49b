import Foundation
@testable import MDoc
import Testing

/// `tdate` in the MSO's own form (`YYYY-MM-DDTHH:MM:SSZ`, ISO/IEC 18013-5 §9.1.2.4) is read without a formatter; it
/// must read exactly what Foundation's ISO 8601 parser reads, and refuse what is not a date.
@Suite struct MDocDateTests {
    @Test func readsWhatFoundationReads() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2_000 {
            // 1900-01-01 to 2200-12-31, whole seconds.
            let seconds = Int64.random(in: -2_208_988_800 ... 7_289_654_399, using: &generator)
            let date = Date(timeIntervalSince1970: TimeInterval(seconds))
            let text = MDocDate.format(date)
            #expect(MDocDate.wholeSecondsUTC(text) == date, "\(text)")
            #expect(MDocDate.wholeSecondsUTC(text) == (try? Date(text, strategy: .iso8601)), "\(text)")
        }
        for text in ["2024-02-29T23:59:59Z", "2000-02-29T00:00:00Z", "1970-01-01T00:00:00Z", "2023-12-31T12:00:00Z"] {
            #expect(MDocDate.wholeSecondsUTC(text) == (try? Date(text, strategy: .iso8601)), "\(text)")
        }
    }

    @Test func refusesWhatIsNotADate() {
        for text in ["2023-02-29T00:00:00Z", "1900-02-29T00:00:00Z", "2024-13-01T00:00:00Z", "2024-04-31T00:00:00Z",
                     "2024-01-01T24:00:00Z", "2024-01-01T00:60:00Z", "2024-01-01T00:00:60Z", "2024-01-01 00:00:00Z",
                     "2024-01-01T00:00:00", "2024-1-01T00:00:00Z", "２024-01-01T00:00:00Z", "2024-01-01T00:00:00.5Z"] {
            #expect(MDocDate.wholeSecondsUTC(text) == nil, "\(text)")
        }
        // Other RFC 3339 forms still parse, through the formatter.
        #expect(MDocDate.parseDateTime("2024-01-01T01:00:00+01:00") == MDocDate.parseDateTime("2024-01-01T00:00:00Z"))
        #expect(MDocDate.parseDateTime("2024-01-01T00:00:00.250Z") != nil)
    }
}
