import Foundation

/// How the command line reads bytes: `@file` (binary, or text holding one of the text forms), hex, base64 or
/// base64url. Commands that take a specific spelling (`--key-id` base64 only, `--challenge` hex only) use the
/// single-format readers, because a hex string is often valid base64 too.
enum ByteInput {
    enum Form: String, Sendable {
        case hex, base64, base64url, binary
    }

    /// The text of an argument: the argument itself, or the contents of `@file`.
    static func text(_ argument: String) throws -> String {
        guard argument.hasPrefix("@") else { return argument }
        let data = try fileData(argument)
        guard let text = String(data: data, encoding: .utf8) else {
            throw CommandFailure(.failure, "\(argument.dropFirst()) is not text")
        }
        return text
    }

    static func fileData(_ argument: String) throws -> Data {
        let path = String(argument.dropFirst())
        guard let data = FileManager.default.contents(atPath: path) else {
            throw CommandFailure(.failure, "cannot read file \(path)")
        }
        return data
    }

    /// Reads any of the forms; hex wins over base64 when the text is both.
    static func anyForm(_ argument: String) throws -> (bytes: [UInt8], form: Form) {
        if argument.hasPrefix("@") {
            let data = try fileData(argument)
            if let text = String(data: data, encoding: .utf8) {
                let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
                if !trimmed.isEmpty, let decoded = textForms(trimmed) { return decoded }
            }
            return ([UInt8](data), .binary)
        }
        let trimmed = argument.trimmingCharacters(in: .whitespacesAndNewlines)
        guard let decoded = textForms(trimmed) else {
            throw CommandFailure(.failure, "input is neither hex, base64 nor base64url (use @file for binary)")
        }
        return decoded
    }

    static func textForms(_ text: String) -> (bytes: [UInt8], form: Form)? {
        if let bytes = hex(text) { return (bytes, .hex) }
        if let bytes = base64(text) { return (bytes, .base64) }
        if let bytes = base64url(text) { return (bytes, .base64url) }
        return nil
    }

    /// Hex only (whitespace and an optional `0x` prefix ignored).
    static func hex(_ text: String) -> [UInt8]? {
        var digits = Substring(text.filter { !$0.isWhitespace })
        if digits.hasPrefix("0x") || digits.hasPrefix("0X") { digits = digits.dropFirst(2) }
        guard !digits.isEmpty, digits.count % 2 == 0 else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(digits.count / 2)
        var index = digits.startIndex
        while index < digits.endIndex {
            let next = digits.index(index, offsetBy: 2)
            guard let byte = UInt8(digits[index..<next], radix: 16) else { return nil }
            bytes.append(byte)
            index = next
        }
        return bytes
    }

    /// Standard base64 only (padding optional).
    static func base64(_ text: String) -> [UInt8]? {
        let compact = text.filter { !$0.isWhitespace }
        guard !compact.isEmpty, !compact.contains("-"), !compact.contains("_") else { return nil }
        return Data(base64Encoded: padded(compact)).map { [UInt8]($0) }
    }

    /// base64url only (padding optional).
    static func base64url(_ text: String) -> [UInt8]? {
        let compact = text.filter { !$0.isWhitespace }
        guard !compact.isEmpty, !compact.contains("+"), !compact.contains("/") else { return nil }
        let standard = compact.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        return Data(base64Encoded: padded(standard)).map { [UInt8]($0) }
    }

    /// Either base64 alphabet.
    static func base64Either(_ text: String) -> [UInt8]? {
        base64(text) ?? base64url(text)
    }

    private static func padded(_ text: String) -> String {
        let remainder = text.count % 4
        return remainder == 0 ? text : text + String(repeating: "=", count: 4 - remainder)
    }
}
