import Foundation

/// Identifiers the tenant makes for its resources (holder applications, instances, SCA wallets, eligibility denial
/// references): lowercase UUIDs, drawn by the services' `RandomSource` (`identifier()`). Anything else names nothing (404).
enum ResourceID {
    /// A lowercase UUID in its 36-character form (8-4-4-4-12 hex digits), checked byte by byte.
    static func isValid(_ text: String) -> Bool {
        let bytes = text.utf8
        guard bytes.count == 36 else { return false }
        for (offset, byte) in bytes.enumerated() {
            switch offset {
            case 8, 13, 18, 23:
                guard byte == UInt8(ascii: "-") else { return false }
            default:
                guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte)
                else { return false }
            }
        }
        return true
    }
}
