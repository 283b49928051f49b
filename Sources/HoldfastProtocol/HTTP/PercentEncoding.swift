import Plumbing

/// Percent-encoding (RFC 3986 §2.1) as the SDK, the server and the admin client write URLs: one encoder for each
/// use, all byte by byte over UTF-8 with uppercase hex digits.
public enum PercentEncoding {
    /// `text` as one path segment (RFC 3986 §3.3): the unreserved characters (§2.3: ASCII letters, digits, `-._~`)
    /// kept, every other byte encoded, `/` included, so that an id is always exactly one segment.
    public static func pathSegment(_ text: String) -> String {
        encode(text, keeping: isUnreserved)
    }

    /// `text` as the value of a query parameter (RFC 3986 §3.4): as for a path segment, the unreserved characters
    /// kept and everything else encoded, `&`, `=`, `+` and `/` included.
    public static func queryValue(_ text: String) -> String {
        encode(text, keeping: isUnreserved)
    }

    /// `text` as a name or value of an `application/x-www-form-urlencoded` body (the WHATWG URL Standard's
    /// urlencoded serializer, which RFC 6749 Appendix B refers to): ASCII letters, digits and `*-._` kept, a space
    /// written `+`, every other byte encoded.
    public static func formValue(_ text: String) -> String {
        encode(text, keeping: isFormSafe, spaceAsPlus: true)
    }

    /// An `application/x-www-form-urlencoded` body: each name and value as `formValue`, `name=value` pairs joined by
    /// `&`, in order.
    public static func formBody(_ parameters: [(name: String, value: String)]) -> String {
        parameters.map { formValue($0.name) + "=" + formValue($0.value) }.joined(separator: "&")
    }

    private static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
             UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"): true
        default: false
        }
    }

    private static func isFormSafe(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
             UInt8(ascii: "*"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"): true
        default: false
        }
    }

    /// Byte by byte, and `text` itself when nothing needs encoding: a path segment is encoded on every instance call.
    private static func encode(_ text: String, keeping isKept: (UInt8) -> Bool, spaceAsPlus: Bool = false) -> String {
        guard !text.utf8.allSatisfy(isKept) else { return text }
        var encoded: [UInt8] = []
        encoded.reserveCapacity(text.utf8.count * 3)
        for byte in text.utf8 {
            if isKept(byte) {
                encoded.append(byte)
            } else if spaceAsPlus, byte == UInt8(ascii: " ") {
                encoded.append(UInt8(ascii: "+"))
            } else {
                encoded += [UInt8(ascii: "%"), Hex.digit(byte >> 4, uppercase: true), Hex.digit(byte & 0x0F, uppercase: true)]
            }
        }
        return String(decoding: encoded, as: UTF8.self)
    }
}
