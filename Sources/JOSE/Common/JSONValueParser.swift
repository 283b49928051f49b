import Plumbing

/// RFC 8259 text to `JSONValue` and back, without Foundation's `JSONDecoder` / `JSONEncoder`.
///
/// Every JWS, JWT and DPoP proof the server checks goes through here twice (header and claims); the `Codable`
/// path tried each JSON type in turn through a throwing container, and cost more than the signature check. This
/// parser reads the bytes once. It is strict: one value and nothing after it but whitespace, no duplicate member
/// names (RFC 7515 §5.2 lets a JWS consumer reject them, and a second `alg` or `jwk` is never honest), strings
/// valid UTF-8 with no raw control characters and no lone surrogate escapes, numbers in the RFC 8259 grammar,
/// nesting at most `maximumDepth` deep.
struct JSONValueParser {
    static let maximumDepth = 64

    /// Why the text is not JSON, with the byte offset (for messages only: callers wrap it in a `JOSEError`).
    struct Failure: Error, CustomStringConvertible {
        let reason: String
        let offset: Int
        var description: String { "\(reason) at byte \(offset)" }
    }

    private let bytes: [UInt8]
    private var index = 0
    private var depth = 0

    private init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// Parses exactly one JSON value, surrounded by optional whitespace.
    static func parse(_ bytes: [UInt8]) throws(Failure) -> JSONValue {
        var parser = JSONValueParser(bytes)
        parser.skipWhitespace()
        let value = try parser.value()
        parser.skipWhitespace()
        guard parser.index == bytes.count else { throw parser.failure("trailing characters after the JSON value") }
        return value
    }

    private func failure(_ reason: String) -> Failure {
        Failure(reason: reason, offset: index)
    }

    private var current: UInt8? { index < bytes.count ? bytes[index] : nil }

    private mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return
            }
        }
    }

    private mutating func value() throws(Failure) -> JSONValue {
        guard let byte = current else { throw failure("unexpected end of JSON") }
        switch byte {
        case UInt8(ascii: "{"): return try object()
        case UInt8(ascii: "["): return try array()
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): try literal("true"); return .bool(true)
        case UInt8(ascii: "f"): try literal("false"); return .bool(false)
        case UInt8(ascii: "n"): try literal("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0") ... UInt8(ascii: "9"): return try number()
        default: throw failure("unexpected character")
        }
    }

    private mutating func literal(_ word: StaticString) throws(Failure) {
        let count = word.utf8CodeUnitCount
        guard index + count <= bytes.count else { throw failure("unexpected end of JSON") }
        let expected = UnsafeBufferPointer(start: word.utf8Start, count: count)
        for offset in 0 ..< count where bytes[index + offset] != expected[offset] {
            throw failure("invalid literal")
        }
        index += count
    }

    /// The members of an object or the elements of an array, from its opening bracket to `close`: `element` reads
    /// one (after any whitespace), then a `,` or the closing bracket must follow. Counts against `maximumDepth`.
    private mutating func elements(closing close: UInt8, _ kind: String,
                                   _ element: (inout JSONValueParser) throws(Failure) -> Void) throws(Failure) {
        depth += 1
        guard depth <= Self.maximumDepth else { throw failure("JSON nested deeper than \(Self.maximumDepth)") }
        index += 1
        skipWhitespace()
        if current == close {
            index += 1
            depth -= 1
            return
        }
        while true {
            try element(&self)
            skipWhitespace()
            switch current {
            case UInt8(ascii: ","):
                index += 1
                skipWhitespace()
            case close:
                index += 1
                depth -= 1
                return
            default:
                throw failure("expected ',' or '\(Character(Unicode.Scalar(close)))' in \(kind)")
            }
        }
    }

    private mutating func object() throws(Failure) -> JSONValue {
        var members: [String: JSONValue] = [:]
        try elements(closing: UInt8(ascii: "}"), "an object") { (parser: inout JSONValueParser) throws(Failure) in
            guard parser.current == UInt8(ascii: "\"") else { throw parser.failure("expected a member name") }
            let nameOffset = parser.index
            let name = try parser.string()
            parser.skipWhitespace()
            guard parser.current == UInt8(ascii: ":") else { throw parser.failure("expected ':' after a member name") }
            parser.index += 1
            parser.skipWhitespace()
            let member = try parser.value()
            guard members.updateValue(member, forKey: name) == nil else {
                throw Failure(reason: "duplicate member name \"\(name)\"", offset: nameOffset)
            }
        }
        return .object(members)
    }

    private mutating func array() throws(Failure) -> JSONValue {
        var elements: [JSONValue] = []
        try self.elements(closing: UInt8(ascii: "]"), "an array") { (parser: inout JSONValueParser) throws(Failure) in
            elements.append(try parser.value())
        }
        return .array(elements)
    }

    /// A string, from its opening quote; the common case without escapes is one UTF-8 validation of a slice.
    private mutating func string() throws(Failure) -> String {
        index += 1
        let start = index
        // The run up to a quote, a backslash or a control character, over the buffer (a base64url value of a few
        // kilobytes is one such run).
        index = bytes.withUnsafeBufferPointer { buffer in
            var offset = start
            // Eight bytes at a time while none of them is a quote, a backslash or a control character (the classic
            // "has a zero byte" word test: `(v - 0x01…) & ~v & 0x80…` is non-zero exactly when some byte of v is 0,
            // and `(w - 0x20…) & ~w & 0x80…` when some byte of w is below 0x20); the byte loop finds which.
            if let base = buffer.baseAddress {
                let ones: UInt64 = 0x0101_0101_0101_0101, highs: UInt64 = 0x8080_8080_8080_8080
                while buffer.count - offset >= 8 {
                    let word = UnsafeRawPointer(base + offset).loadUnaligned(as: UInt64.self)
                    let quote = word ^ (ones &* 0x22), backslash = word ^ (ones &* 0x5C)
                    let stops = ((quote &- ones) & ~quote) | ((backslash &- ones) & ~backslash) | ((word &- ones &* 0x20) & ~word)
                    if stops & highs != 0 { break }
                    offset += 8
                }
            }
            while offset < buffer.count {
                let byte = buffer[offset]
                if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte < 0x20 { break }
                offset += 1
            }
            return offset
        }
        if index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                let text = try validated(bytes[start ..< index], at: start)
                index += 1
                return text
            }
            guard byte >= 0x20 else { throw failure("control character in a string") }
        }
        guard index < bytes.count else { throw failure("unterminated string") }
        // Escapes: collect the UTF-8 bytes, decoding each escape.
        var utf8 = Array(bytes[start ..< index])
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\""):
                let text = try validated(utf8[...], at: start)
                index += 1
                return text
            case UInt8(ascii: "\\"):
                index += 1
                try escape(into: &utf8)
            case ..<0x20:
                throw failure("control character in a string")
            default:
                utf8.append(byte)
                index += 1
            }
        }
        throw failure("unterminated string")
    }

    private func validated(_ slice: ArraySlice<UInt8>, at offset: Int) throws(Failure) -> String {
        // ASCII (every base64url value) is valid UTF-8 as it is: made without the generic validation.
        let ascii = slice.withUnsafeBufferPointer { buffer -> String? in
            var index = 0
            if let base = buffer.baseAddress {
                while buffer.count - index >= 8 {
                    if UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self) & 0x8080_8080_8080_8080 != 0 { return nil }
                    index += 8
                }
            }
            while index < buffer.count {
                if buffer[index] >= 0x80 { return nil }
                index += 1
            }
            return String(decoding: buffer, as: UTF8.self)
        }
        if let ascii { return ascii }
        guard let text = String(validating: slice, as: UTF8.self) else {
            throw Failure(reason: "string is not valid UTF-8", offset: offset)
        }
        return text
    }

    /// One escape, after its backslash.
    private mutating func escape(into utf8: inout [UInt8]) throws(Failure) {
        guard let byte = current else { throw failure("unterminated escape") }
        index += 1
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): utf8.append(byte)
        case UInt8(ascii: "b"): utf8.append(0x08)
        case UInt8(ascii: "f"): utf8.append(0x0C)
        case UInt8(ascii: "n"): utf8.append(0x0A)
        case UInt8(ascii: "r"): utf8.append(0x0D)
        case UInt8(ascii: "t"): utf8.append(0x09)
        case UInt8(ascii: "u"):
            var scalar = try hex4()
            if (0xD800 ... 0xDBFF).contains(scalar) {
                guard current == UInt8(ascii: "\\"), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "u") else {
                    throw failure("lone high surrogate escape")
                }
                index += 2
                let low = try hex4()
                guard (0xDC00 ... 0xDFFF).contains(low) else { throw failure("high surrogate not followed by a low one") }
                scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
            } else if (0xDC00 ... 0xDFFF).contains(scalar) {
                throw failure("lone low surrogate escape")
            }
            guard let unicode = Unicode.Scalar(scalar) else { throw failure("invalid \\u escape") }
            utf8.append(contentsOf: UTF8.encode(unicode)!)
        default:
            throw failure("invalid escape")
        }
    }

    private mutating func hex4() throws(Failure) -> UInt32 {
        guard index + 4 <= bytes.count else { throw failure("unterminated \\u escape") }
        var value: UInt32 = 0
        for _ in 0 ..< 4 {
            let byte = bytes[index]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0") ... UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a") ... UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A") ... UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw failure("invalid hex digit in a \\u escape")
            }
            value = value << 4 | UInt32(digit)
            index += 1
        }
        return value
    }

    /// `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`: an integer that fits in `Int64` stays exact, anything
    /// else becomes a finite `Double`.
    private mutating func number() throws(Failure) -> JSONValue {
        let start = index
        if current == UInt8(ascii: "-") { index += 1 }
        guard let first = current, isDigit(first) else { throw failure("expected a digit") }
        index += 1
        if first != UInt8(ascii: "0") { skipDigits() }
        var integral = true
        if current == UInt8(ascii: ".") {
            integral = false
            index += 1
            guard let byte = current, isDigit(byte) else { throw failure("expected a digit after '.'") }
            skipDigits()
        }
        if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
            integral = false
            index += 1
            if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { index += 1 }
            guard let byte = current, isDigit(byte) else { throw failure("expected a digit in the exponent") }
            skipDigits()
        }
        let text = String(decoding: bytes[start ..< index], as: UTF8.self)
        if integral, let integer = Int64(text) { return .integer(integer) }
        guard let double = Double(text), double.isFinite else {
            throw Failure(reason: "number out of range", offset: start)
        }
        return .number(double)
    }

    private func isDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }

    private mutating func skipDigits() {
        while let byte = current, isDigit(byte) { index += 1 }
    }
}

/// `JSONValue` to compact RFC 8259 text: object members sorted by the UTF-8 bytes of their names (what we sign is
/// deterministic), `/` not escaped, non-ASCII written as UTF-8, control characters escaped.
enum JSONValueWriter {
    struct NonFiniteNumber: Error {}

    static func write(_ value: JSONValue) throws(NonFiniteNumber) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(256)
        try write(value, into: &out)
        return out
    }

    static func write(_ value: JSONValue, into out: inout [UInt8]) throws(NonFiniteNumber) {
        switch value {
        case .null: out.append(contentsOf: "null".utf8)
        case .bool(let flag): out.append(contentsOf: (flag ? "true" : "false").utf8)
        case .integer(let integer): out.append(contentsOf: String(integer).utf8)
        case .number(let double):
            guard double.isFinite else { throw NonFiniteNumber() }
            if double.rounded() == double, abs(double) < 1e15 {
                out.append(contentsOf: String(Int64(double)).utf8)
            } else {
                out.append(contentsOf: "\(double)".utf8)
            }
        case .string(let text): writeString(text, into: &out)
        case .array(let elements):
            out.append(UInt8(ascii: "["))
            for (offset, element) in elements.enumerated() {
                if offset > 0 { out.append(UInt8(ascii: ",")) }
                try write(element, into: &out)
            }
            out.append(UInt8(ascii: "]"))
        case .object(let members):
            out.append(UInt8(ascii: "{"))
            let names = members.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
            for (offset, name) in names.enumerated() {
                if offset > 0 { out.append(UInt8(ascii: ",")) }
                writeString(name, into: &out)
                out.append(UInt8(ascii: ":"))
                try write(members[name]!, into: &out)
            }
            out.append(UInt8(ascii: "}"))
        }
    }

    static func writeString(_ text: String, into out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\"")])
            case UInt8(ascii: "\\"): out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\\")])
            case 0x0A: out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
            case 0x0D: out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
            case 0x09: out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
            case 0x08: out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "b")])
            case 0x0C: out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "f")])
            case ..<0x20:
                out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"),
                                        Hex.digit(byte >> 4), Hex.digit(byte & 0x0F)])
            default: out.append(byte)
            }
        }
        out.append(UInt8(ascii: "\""))
    }
}
