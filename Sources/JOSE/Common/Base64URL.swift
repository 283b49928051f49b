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

    /// `reverse` pre-shifted to each of the four places of a group (24 bits): a group is four loads OR-ed together. A
    /// character outside the alphabet is all ones, so the top bit of the OR of every group says whether one was seen.
    private static let placed: [UInt32] = {
        var tables = [UInt32](repeating: .max, count: 4 * 256)
        for (index, byte) in alphabet.enumerated() {
            for place in 0..<4 { tables[place * 256 + Int(byte)] = UInt32(index) << (18 - 6 * place) }
        }
        return tables
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
        if let decoded = text.utf8.withContiguousStorageIfAvailable({ decode(bytes: $0) }) { return decoded }
        return Array(text.utf8).withUnsafeBufferPointer { decode(bytes: $0) }
    }

    /// Four characters at a time into a buffer of the exact size (JWE ciphertexts and `vp_token`s are kilobytes), with
    /// `placed`: whether a character outside the alphabet was seen is tested once at the end, instead of a branch per
    /// four characters (a failed decode returns nil all the same, whatever was written). The last one to three
    /// characters go through `reverse`, where a character outside the alphabet is 0xFF and every other below 64.
    static func decode(bytes input: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
        if input.isEmpty { return [] }
        let remainder = input.count % 4
        if remainder == 1 { return nil }
        let whole = input.count / 4
        let outputCount = whole * 3 + (remainder == 0 ? 0 : remainder - 1)
        var valid = true
        let output = reverse.withUnsafeBufferPointer { tableBuffer in placed.withUnsafeBufferPointer { placedBuffer in
            [UInt8](unsafeUninitializedCapacity: outputCount) { buffer, initialized in
                // Not empty (checked above), so every buffer has an address.
                guard let table = tableBuffer.baseAddress, let places = placedBuffer.baseAddress, let source = input.baseAddress,
                      var target = buffer.baseAddress else {
                    initialized = 0
                    valid = false
                    return
                }
                var next = source
                var seen: UInt32 = 0
                for step in 0..<whole {
                    let chunk = places[Int(next[0])] | places[256 + Int(next[1])] | places[512 + Int(next[2])] | places[768 + Int(next[3])]
                    seen |= chunk
                    if step + 1 < whole {
                        // Three bytes as one four-byte store; the fourth is overwritten by the next group's.
                        UnsafeMutableRawPointer(target).storeBytes(of: (chunk << 8).bigEndian, as: UInt32.self)
                    } else {
                        target[0] = UInt8(truncatingIfNeeded: chunk >> 16)
                        target[1] = UInt8(truncatingIfNeeded: chunk >> 8)
                        target[2] = UInt8(truncatingIfNeeded: chunk)
                    }
                    target += 3
                    next += 4
                }
                var out = whole * 3
                if seen & 0x8000_0000 != 0 {
                    valid = false
                } else if remainder > 0 {
                    let a = table[Int(next[0])], b = table[Int(next[1])]
                    let c = remainder == 3 ? table[Int(next[2])] : 0
                    if (a | b | c) & 0x80 != 0 {
                        valid = false
                    } else if remainder == 2 {
                        // One byte; the last character's low four bits must be zero (RFC 4648 §3.5 canonical encoding).
                        if b & 0x0F != 0 { valid = false } else { buffer[out] = a << 2 | b >> 4; out += 1 }
                    } else {
                        // Two bytes; the last character's low two bits must be zero.
                        if c & 0x03 != 0 {
                            valid = false
                        } else {
                            buffer[out] = a << 2 | b >> 4
                            buffer[out + 1] = (b & 0x0F) << 4 | c >> 2
                            out += 2
                        }
                    }
                }
                initialized = valid ? out : 0
            }
        } }
        return valid ? output : nil
    }

    /// Decodes or throws `JOSEError.malformedBase64URL` naming the part at fault.
    static func decode<S: StringProtocol>(_ text: S, part: String) throws(JOSEError) -> [UInt8] {
        guard let bytes = decode(text) else { throw .malformedBase64URL(part: part) }
        return bytes
    }
}
