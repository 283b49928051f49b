/// Lowercase hex, and constant-time comparison for secrets bound into attestations.
enum Hex {
    static func encode(_ bytes: some Collection<UInt8>) -> String {
        String(unsafeUninitializedCapacity: bytes.count * 2) { buffer in
            var index = 0
            for byte in bytes {
                buffer[index] = digit(byte >> 4)
                buffer[index + 1] = digit(byte & 0x0F)
                index += 2
            }
            return index
        }
    }

    /// A big-endian number as lowercase hex without leading zeros ("0" for zero): how Google's status list spells
    /// certificate serial numbers.
    static func encodeMinimal(_ bytes: some Collection<UInt8>) -> String {
        let significant = bytes.drop { $0 == 0 }
        guard let first = significant.first else { return "0" }
        let hex = encode(significant)
        return first < 0x10 ? String(hex.utf8.dropFirst())! : hex
    }

    /// The lowercase ASCII digit of a nibble.
    @inline(__always) static func digit(_ nibble: UInt8) -> UInt8 {
        nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "a") - 10 + nibble
    }
}
