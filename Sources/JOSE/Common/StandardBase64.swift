import Foundation

/// RFC 4648 §4 base64 with padding — used only by `x5c` (RFC 7515 §4.1.6), which is not base64url.
enum StandardBase64 {
    static func encode(_ bytes: [UInt8]) -> String {
        Data(bytes).base64EncodedString()
    }

    static func decode(_ text: String) -> [UInt8]? {
        Data(base64Encoded: text).map { Array($0) }
    }
}
