/// Appends CBOR encodings to a byte buffer (RFC 8949 §3). Heads always use the shortest argument (§4.1).
struct CBORWriter {
    var bytes: [UInt8]
    let deterministic: Bool

    init(capacity: Int = 256, deterministic: Bool) {
        bytes = []
        bytes.reserveCapacity(capacity)
        self.deterministic = deterministic
    }

    @inline(__always)
    mutating func appendHead(_ major: UInt8, _ argument: UInt64) {
        let type = major << 5
        if argument < 24 {
            bytes.append(type | UInt8(truncatingIfNeeded: argument))
        } else if argument <= 0xff {
            bytes.append(type | 24)
            bytes.append(UInt8(truncatingIfNeeded: argument))
        } else if argument <= 0xffff {
            bytes.append(type | 25)
            appendBigEndian(UInt16(truncatingIfNeeded: argument))
        } else if argument <= 0xffff_ffff {
            bytes.append(type | 26)
            appendBigEndian(UInt32(truncatingIfNeeded: argument))
        } else {
            bytes.append(type | 27)
            appendBigEndian(argument)
        }
    }

    @inline(__always)
    mutating func appendBigEndian<I: FixedWidthInteger>(_ value: I) {
        withUnsafeBytes(of: value.bigEndian) { bytes.append(contentsOf: $0) }
    }

    mutating func append(_ item: CBOR) {
        switch item {
        case .unsigned(let value): appendHead(0, value)
        case .negative(let value): appendHead(1, value)
        case .bytes(let value):
            appendHead(2, UInt64(value.count))
            bytes.append(contentsOf: value)
        case .text(let value):
            appendText(value)
        case .array(let items):
            appendHead(4, UInt64(items.count))
            for element in items { append(element) }
        case .map(let pairs):
            appendMap(pairs, indefinite: false)
        case .tagged(let tag, let content):
            appendHead(6, tag)
            append(content)
        case .simple(let value):
            if value < 24 {
                bytes.append(0xe0 | value)
            } else {
                bytes.append(0xf8)
                bytes.append(value)
            }
        case .bool(let value): bytes.append(value ? 0xf5 : 0xf4)
        case .null: bytes.append(0xf6)
        case .undefined: bytes.append(0xf7)
        case .float(let value, let width):
            appendFloat(value, width: deterministic ? FloatCoding.shortestWidth(for: value) : width)
        case .indefinite(let indefinite):
            if deterministic {
                append(item.definite)
                return
            }
            switch indefinite {
            case .bytes(let chunks):
                bytes.append(0x5f)
                for chunk in chunks {
                    appendHead(2, UInt64(chunk.count))
                    bytes.append(contentsOf: chunk)
                }
                bytes.append(0xff)
            case .text(let chunks):
                bytes.append(0x7f)
                for chunk in chunks { appendText(chunk) }
                bytes.append(0xff)
            case .array(let items):
                bytes.append(0x9f)
                for element in items { append(element) }
                bytes.append(0xff)
            case .map(let pairs):
                appendMap(pairs, indefinite: true)
            }
        }
    }

    @inline(__always)
    private mutating func appendText(_ value: String) {
        var value = value
        value.withUTF8 { utf8 in
            appendHead(3, UInt64(utf8.count))
            bytes.append(contentsOf: utf8)
        }
    }

    private mutating func appendMap(_ pairs: [CBOR.Pair], indefinite: Bool) {
        if deterministic {
            // RFC 8949 §4.2.1: keys sorted by the bytewise lexicographic order of their deterministic encodings.
            var encodedKeys: [([UInt8], Int)] = []
            encodedKeys.reserveCapacity(pairs.count)
            for (index, pair) in pairs.enumerated() {
                var keyWriter = CBORWriter(capacity: 16, deterministic: true)
                keyWriter.append(pair.key)
                encodedKeys.append((keyWriter.bytes, index))
            }
            encodedKeys.sort { $0.0.lexicographicallyPrecedes($1.0) }
            appendHead(5, UInt64(pairs.count))
            for (key, index) in encodedKeys {
                bytes.append(contentsOf: key)
                append(pairs[index].value)
            }
            return
        }
        if indefinite { bytes.append(0xbf) } else { appendHead(5, UInt64(pairs.count)) }
        for pair in pairs {
            append(pair.key)
            append(pair.value)
        }
        if indefinite { bytes.append(0xff) }
    }

    /// Writes in `width` when it holds the value exactly, otherwise in the next wider width that does, so that an
    /// item never loses precision on the way out.
    private mutating func appendFloat(_ value: Double, width: CBOR.FloatWidth) {
        if width == .half, let half = FloatCoding.exactHalf(value) {
            bytes.append(0xf9)
            appendBigEndian(half)
        } else if width != .double, let single = FloatCoding.exactSingle(value) {
            bytes.append(0xfa)
            appendBigEndian(single)
        } else {
            bytes.append(0xfb)
            appendBigEndian(value.bitPattern)
        }
    }
}

extension CBOR {
    /// The encoding of this item (RFC 8949 §3).
    ///
    /// With `deterministic`, the RFC 8949 §4.2.1 core deterministic encoding: shortest heads, floats in the shortest
    /// width that keeps the value, definite lengths only, and map keys sorted by their encoded bytes. Without it,
    /// maps keep the order given, indefinite items stay indefinite and floats keep their width.
    public func encoded(deterministic: Bool = false) -> [UInt8] {
        var writer = CBORWriter(deterministic: deterministic)
        writer.append(self)
        return writer.bytes
    }

    /// Appends the encoding of this item to `buffer`.
    public func encode(into buffer: inout [UInt8], deterministic: Bool = false) {
        var writer = CBORWriter(capacity: 0, deterministic: deterministic)
        swap(&writer.bytes, &buffer)
        writer.append(self)
        swap(&writer.bytes, &buffer)
    }
}

extension CBOR {
    /// The head of a data item (RFC 8949 §3.1): `major` type 0…7 with `argument` in its shortest form (§4.1). With it
    /// a structure can be assembled around items whose exact received bytes must be kept (for example the
    /// SessionTranscript inside ISO 18013-5's DeviceAuthentication).
    public static func head(major: UInt8, argument: UInt64) -> [UInt8] {
        precondition(major < 8, "CBOR major types are 0…7")
        var writer = CBORWriter(capacity: 9, deterministic: false)
        writer.appendHead(major, argument)
        return writer.bytes
    }

    /// Tag 24 around already encoded bytes (RFC 8949 §3.4.5.1: `#6.24(bstr)`), the bytes kept as they are.
    public static func embeddedEncoding(of encoded: some Collection<UInt8>) -> [UInt8] {
        var result = head(major: 6, argument: Tag.encodedCBOR)
        result += head(major: 2, argument: UInt64(encoded.count))
        result.append(contentsOf: encoded)
        return result
    }
}
