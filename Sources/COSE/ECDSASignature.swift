/// Conversions between the two ECDSA signature encodings: COSE's raw `r‖s` (RFC 9053 §2.1) and the DER
/// `ECDSA-Sig-Value` X.509 uses (RFC 3279 §2.2.3). Both directions check strictly: DER must be minimal and
/// canonical, and every integer must be positive and fit the curve.
public enum ECDSASignature {
    /// Raw `r‖s` (each `componentLength` bytes) to DER.
    public static func der(fromRaw raw: [UInt8], componentLength: Int) throws(COSEError) -> [UInt8] {
        guard componentLength > 0, componentLength <= 66, raw.count == componentLength * 2 else {
            throw .invalidSignatureEncoding("raw signature of \(raw.count) bytes, expected \(componentLength * 2)")
        }
        let r = integer(raw[0..<componentLength]), s = integer(raw[componentLength...])
        guard let r, let s else { throw .invalidSignatureEncoding("r or s is zero") }
        var body: [UInt8] = []
        body.reserveCapacity(r.count + s.count + 6)
        body.append(0x02)
        appendLength(r.count, to: &body)
        body += r
        body.append(0x02)
        appendLength(s.count, to: &body)
        body += s
        var result: [UInt8] = [0x30]
        appendLength(body.count, to: &result)
        return result + body
    }

    /// DER to raw `r‖s` with each integer left-padded to `componentLength` bytes.
    public static func raw(fromDER der: [UInt8], componentLength: Int) throws(COSEError) -> [UInt8] {
        try raw(fromDER: der[...], componentLength: componentLength)
    }

    /// The same, for a signature value in place in a larger buffer (an X.509 certificate's signatureValue).
    public static func raw(fromDER der: ArraySlice<UInt8>, componentLength: Int) throws(COSEError) -> [UInt8] {
        guard componentLength > 0, componentLength <= 66 else { throw .invalidSignatureEncoding("bad component length") }
        var reader = DERReader(bytes: der)
        guard try reader.readTag() == 0x30 else { throw .invalidSignatureEncoding("not a SEQUENCE") }
        let sequenceLength = try reader.readLength()
        guard sequenceLength == der.endIndex - reader.position else {
            throw .invalidSignatureEncoding("SEQUENCE length does not match the input")
        }
        var result: [UInt8] = []
        result.reserveCapacity(componentLength * 2)
        for name in ["r", "s"] {
            guard try reader.readTag() == 0x02 else { throw .invalidSignatureEncoding("\(name) is not an INTEGER") }
            let length = try reader.readLength()
            let content = try reader.read(length)
            guard let first = content.first else { throw .invalidSignatureEncoding("\(name) is empty") }
            guard first & 0x80 == 0 else { throw .invalidSignatureEncoding("\(name) is negative") }
            if first == 0 {
                guard content.count > 1, content[content.startIndex + 1] & 0x80 != 0 else {
                    throw .invalidSignatureEncoding("\(name) is not minimally encoded or is zero")
                }
            }
            let magnitude = first == 0 ? content.dropFirst() : content
            guard magnitude.count <= componentLength else {
                throw .invalidSignatureEncoding("\(name) is longer than the curve allows")
            }
            result.append(contentsOf: repeatElement(0, count: componentLength - magnitude.count))
            result.append(contentsOf: magnitude)
        }
        guard reader.position == der.endIndex else { throw .invalidSignatureEncoding("bytes after the SEQUENCE") }
        return result
    }

    /// The minimal DER INTEGER content of an unsigned big-endian number; `nil` for zero.
    private static func integer(_ bytes: ArraySlice<UInt8>) -> [UInt8]? {
        let trimmed = bytes.drop { $0 == 0 }
        guard let first = trimmed.first else { return nil }
        return first & 0x80 != 0 ? [0] + trimmed : Array(trimmed)
    }

    private static func appendLength(_ length: Int, to bytes: inout [UInt8]) {
        if length < 0x80 {
            bytes.append(UInt8(length))
        } else {
            bytes.append(0x81)
            bytes.append(UInt8(truncatingIfNeeded: length))
        }
    }

    private struct DERReader {
        let bytes: ArraySlice<UInt8>
        var position: Int

        init(bytes: ArraySlice<UInt8>) {
            self.bytes = bytes
            position = bytes.startIndex
        }

        mutating func readTag() throws(COSEError) -> UInt8 {
            guard position < bytes.endIndex else { throw .invalidSignatureEncoding("truncated DER") }
            defer { position += 1 }
            return bytes[position]
        }

        mutating func readLength() throws(COSEError) -> Int {
            let first = try readTag()
            if first < 0x80 { return Int(first) }
            // Signatures are under 256 bytes: only the one-byte long form, and only where the short form cannot be used.
            guard first == 0x81 else { throw .invalidSignatureEncoding("unsupported DER length form") }
            let length = Int(try readTag())
            guard length >= 0x80 else { throw .invalidSignatureEncoding("DER length not minimally encoded") }
            return length
        }

        mutating func read(_ count: Int) throws(COSEError) -> ArraySlice<UInt8> {
            guard count <= bytes.endIndex - position else { throw .invalidSignatureEncoding("truncated DER") }
            defer { position += count }
            return bytes[position..<(position + count)]
        }
    }
}
