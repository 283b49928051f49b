import Plumbing

extension Hex {
    /// A big-endian number as lowercase hex without leading zeros ("0" for zero): how Google's status list spells
    /// certificate serial numbers.
    static func encodeMinimal(_ bytes: some Collection<UInt8>) -> String {
        let significant = bytes.drop { $0 == 0 }
        guard let first = significant.first else { return "0" }
        let hex = encode(significant)
        return first < 0x10 ? String(hex.utf8.dropFirst())! : hex
    }
}
