/// RFC 7515 §2 / RFC 4648 §5 — base64url without padding, the encoding of every JOSE segment.
///
/// The decoder is strict: it rejects padding, characters outside the URL-safe alphabet, impossible lengths and
/// non-zero trailing bits, so that one token has exactly one encoding and malformed input fails early.
public enum Base64URL {
    private static let alphabet: [UInt8] = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    private static let reverse: [UInt8] = {
        var table = [UInt8](repeating: 0xFF, count: 256)
        for (index, byte) in alphabet.enumerated() { table[Int(byte)] = UInt8(index) }
        return table
    }()

    /// Encodes bytes as base64url with no padding.
    public static func encode<Bytes: Sequence>(_ bytes: Bytes) -> String where Bytes.Element == UInt8 {
        let input = Array(bytes)
        var output: [UInt8] = []
        output.reserveCapacity((input.count * 4 + 2) / 3)
        var index = 0
        while index + 3 <= input.count {
            let chunk = UInt32(input[index]) << 16 | UInt32(input[index + 1]) << 8 | UInt32(input[index + 2])
            output.append(alphabet[Int((chunk >> 18) & 0x3F)])
            output.append(alphabet[Int((chunk >> 12) & 0x3F)])
            output.append(alphabet[Int((chunk >> 6) & 0x3F)])
            output.append(alphabet[Int(chunk & 0x3F)])
            index += 3
        }
        let remaining = input.count - index
        if remaining == 1 {
            let chunk = UInt32(input[index]) << 16
            output.append(alphabet[Int((chunk >> 18) & 0x3F)])
            output.append(alphabet[Int((chunk >> 12) & 0x3F)])
        } else if remaining == 2 {
            let chunk = UInt32(input[index]) << 16 | UInt32(input[index + 1]) << 8
            output.append(alphabet[Int((chunk >> 18) & 0x3F)])
            output.append(alphabet[Int((chunk >> 12) & 0x3F)])
            output.append(alphabet[Int((chunk >> 6) & 0x3F)])
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// Decodes unpadded base64url; `nil` for anything that is not exactly that.
    public static func decode<S: StringProtocol>(_ text: S) -> [UInt8]? {
        let input = Array(text.utf8)
        if input.count % 4 == 1 { return nil }
        var output: [UInt8] = []
        output.reserveCapacity(input.count * 3 / 4)
        var buffer: UInt32 = 0
        var bits = 0
        for byte in input {
            let value = reverse[Int(byte)]
            if value == 0xFF { return nil }
            buffer = (buffer << 6) | UInt32(value)
            bits += 6
            if bits >= 8 {
                bits -= 8
                output.append(UInt8((buffer >> UInt32(bits)) & 0xFF))
            }
        }
        // The bits left over must be zero (RFC 4648 §3.5 canonical encoding).
        if bits > 0, buffer & ((1 << UInt32(bits)) - 1) != 0 { return nil }
        return output
    }

    /// Decodes or throws `JOSEError.malformedBase64URL` naming the part at fault.
    static func decode<S: StringProtocol>(_ text: S, part: String) throws(JOSEError) -> [UInt8] {
        guard let bytes = decode(text) else { throw .malformedBase64URL(part: part) }
        return bytes
    }
}
