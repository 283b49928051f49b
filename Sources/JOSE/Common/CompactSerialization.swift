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
        while segments.count < limit, let dot = utf8[start...].firstIndex(of: UInt8(ascii: ".")) {
            segments.append(text[start ..< dot])
            start = utf8.index(after: dot)
        }
        segments.append(text[start...])
        return segments
    }
}
