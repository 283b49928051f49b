import Foundation

/// Base64url without padding (RFC 4648 §5, §3.2), as the engagement QR code carries it (ISO/IEC 18013-5 §8.2.2.3).
enum Base64URL {
    static func encode(_ bytes: [UInt8]) -> String {
        var text = Data(bytes).base64EncodedString()
        while text.hasSuffix("=") { text.removeLast() }
        return String(text.map { $0 == "+" ? "-" : $0 == "/" ? "_" : $0 })
    }

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
        var standard = String(text.map { $0 == "-" ? "+" : $0 == "_" ? "/" : $0 })
        standard += String(repeating: "=", count: (4 - standard.utf8.count % 4) % 4)
        guard let data = Data(base64Encoded: standard) else { throw .malformedQRCode("not base64url") }
        let bytes = Array(data)
        guard encode(bytes) == text else { throw .malformedQRCode("the last base64url character has unused bits set") }
        return bytes
    }
}
