import JOSE

/// The base64url text of an engagement QR code (ISO/IEC 18013-5 §8.2.2.3: no padding), read and written with the
/// project's one strict codec (`JOSE.Base64URL`, RFC 4648 §5); this adds only the refusal's reason for the reader.
enum EngagementText {
    static func encode(_ bytes: [UInt8]) -> String { Base64URL.encode(bytes) }

    /// Strict: only the base64url alphabet, no padding, no whitespace, and the unused bits of the last character zero
    /// (the text must be the one encoding of its bytes).
    static func decode(_ text: String) throws(ProximityError) -> [UInt8] {
        guard !text.isEmpty else { throw .malformedQRCode("no engagement after mdoc:") }
        for scalar in text.unicodeScalars {
            switch scalar {
            case "A"..."Z", "a"..."z", "0"..."9", "-", "_": continue
            case "=": throw .malformedQRCode("base64url padding is not allowed")
            default: throw .malformedQRCode("\"\(scalar.escaped(asASCII: true))\" is not a base64url character")
            }
        }
        guard text.utf8.count % 4 != 1 else { throw .malformedQRCode("the base64url text has an impossible length") }
        // Alphabet and length are right: what the codec still refuses is a last character with unused bits set.
        guard let bytes = Base64URL.decode(text) else { throw .malformedQRCode("the last base64url character has unused bits set") }
        return bytes
    }
}
