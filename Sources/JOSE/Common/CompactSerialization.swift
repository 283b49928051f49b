import Foundation

/// The dot-separated segments of a JWS / JWE compact serialization (RFC 7515 §7.1, RFC 7516 §7.1).
enum CompactSerialization {
    /// Splits `text` at every `.`, looking at UTF-8 bytes rather than characters (a token is ASCII; splitting by
    /// `Character` runs grapheme breaking over the whole token). At most `limit + 1` segments are made, so that a
    /// hostile string of dots costs nothing: a count above `limit` is all the caller needs to refuse it.
    static func segments(of text: String, limit: Int) -> [Substring] {
        var segments: [Substring] = []
        segments.reserveCapacity(limit)
        let utf8 = text.utf8
        var start = utf8.startIndex
        // The dots' byte offsets found in the contiguous UTF-8 (a native string's), then turned into indices: the
        // generic search over a view costs about as much as the rest of reading a JWE of a few kilobytes.
        let offsets = utf8.withContiguousStorageIfAvailable { buffer -> [Int] in
            guard let base = buffer.baseAddress else { return [] }
            var found: [Int] = []
            var offset = 0
            while found.count < limit, offset < buffer.count,
                  let hit = memchr(base + offset, Int32(UInt8(ascii: ".")), buffer.count - offset) {
                let at = UnsafeRawPointer(base).distance(to: UnsafeRawPointer(hit))
                found.append(at)
                offset = at + 1
            }
            return found
        }
        if let offsets {
            var previous = 0
            for offset in offsets {
                let dot = utf8.index(start, offsetBy: offset - previous)
                segments.append(text[start ..< dot])
                start = utf8.index(after: dot)
                previous = offset + 1
            }
        } else {
            while segments.count < limit, let dot = utf8[start...].firstIndex(of: UInt8(ascii: ".")) {
                segments.append(text[start ..< dot])
                start = utf8.index(after: dot)
            }
        }
        segments.append(text[start...])
        return segments
    }
}
