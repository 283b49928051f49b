/// Base 16 (RFC 4648 §8) in lowercase, the package's one hex encoder: identifiers derived from hashes, ETags,
/// admin key ids, request ids, CBOR diagnostic notation's `h'…'`, `\u00XX` escapes.
public enum Hex {
    /// `bytes` as lowercase hex, two digits per byte.
    @inlinable
    public static func encode(_ bytes: some Collection<UInt8>) -> String {
        let count = bytes.count
        return String(unsafeUninitializedCapacity: count * 2) { buffer in
            var index = 0
            for byte in bytes {
                buffer[index] = digit(byte >> 4)
                buffer[index + 1] = digit(byte & 0x0F)
                index += 2
            }
            return index
        }
    }

    /// `bytes` (a sequence that is not a collection, such as a prefix of a digest) as lowercase hex.
    @inlinable
    public static func encode(_ bytes: some Sequence<UInt8>) -> String {
        encode(Array(bytes))
    }

    /// The ASCII digit of a nibble (0–15): lowercase, or uppercase where a format asks for it (RFC 3986 §2.1
    /// percent-encoding).
    @inlinable @inline(__always)
    public static func digit(_ nibble: UInt8, uppercase: Bool = false) -> UInt8 {
        nibble < 10 ? UInt8(ascii: "0") + nibble : (uppercase ? UInt8(ascii: "A") : UInt8(ascii: "a")) - 10 + nibble
    }
}
