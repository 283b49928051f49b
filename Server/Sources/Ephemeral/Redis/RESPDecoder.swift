import NIOCore

/// Reads RESP2 replies (RESP protocol spec, RESP2 types) from bytes that may arrive in any chunks.
///
/// Bounded: a bulk string's declared length, an array's declared count, the nesting depth, a line's length and
/// the bytes of one whole reply are all limited, and a declared length is checked against its limit before any
/// byte of it is awaited or stored, so a hostile `$9999999999\r\n` costs nothing. Malformed input (an unknown type
/// byte, a bad number, a missing CRLF) is a `REDIS_PROTOCOL` error, never a crash.
public struct RESPDecoder: Sendable {
    public struct Limits: Sendable, Equatable {
        public var maxBulkLength: Int
        public var maxArrayLength: Int
        /// Arrays nested deeper than this are refused (an array of arrays is depth 2).
        public var maxDepth: Int
        /// Bytes of a simple string, error or number line, CRLF excluded.
        public var maxLineLength: Int
        /// Bytes of one complete reply, and so of what may be buffered while waiting for one.
        public var maxReplyBytes: Int

        public init(maxBulkLength: Int = 4 * 1024 * 1024, maxArrayLength: Int = 4096, maxDepth: Int = 8,
                    maxLineLength: Int = 64 * 1024, maxReplyBytes: Int = 8 * 1024 * 1024) {
            self.maxBulkLength = maxBulkLength
            self.maxArrayLength = maxArrayLength
            self.maxDepth = maxDepth
            self.maxLineLength = maxLineLength
            self.maxReplyBytes = maxReplyBytes
        }
    }

    public let limits: Limits

    public init(limits: Limits = Limits()) {
        self.limits = limits
    }

    /// Decodes one complete reply from the start of `buffer`'s readable bytes and consumes exactly its bytes.
    /// Returns nil, consuming nothing, when more bytes are needed.
    public func decode(_ buffer: inout ByteBuffer) throws(EphemeralStoreError) -> RESPValue? {
        let outcome = buffer.withUnsafeReadableBytes { bytes in
            Parser(bytes: bytes, limits: limits).value(at: 0, depth: 0)
        }
        switch outcome {
        case .complete(let value, let end):
            guard end <= limits.maxReplyBytes else {
                throw .redisProtocol("a reply of \(end) bytes exceeds the limit of \(limits.maxReplyBytes)")
            }
            buffer.moveReaderIndex(forwardBy: end)
            return value
        case .incomplete:
            guard buffer.readableBytes <= limits.maxReplyBytes else {
                throw .redisProtocol("more than \(limits.maxReplyBytes) bytes without a complete reply")
            }
            return nil
        case .malformed(let reason):
            throw .redisProtocol("malformed RESP reply: \(reason)")
        }
    }

    /// Decodes `bytes`, which must hold exactly one complete reply.
    public func decode(_ bytes: [UInt8]) throws(EphemeralStoreError) -> RESPValue {
        var buffer = ByteBuffer(bytes: bytes)
        guard let value = try decode(&buffer) else { throw .redisProtocol("incomplete RESP reply") }
        guard buffer.readableBytes == 0 else { throw .redisProtocol("\(buffer.readableBytes) bytes after the reply") }
        return value
    }
}

private enum ParseOutcome {
    /// The value and the offset just past it.
    case complete(RESPValue, Int)
    case incomplete
    case malformed(String)
}

/// A recursive-descent reader over the buffered bytes; it never reads past `bytes.count` and recurses at most
/// `limits.maxDepth` levels.
private struct Parser {
    let bytes: UnsafeRawBufferPointer
    let limits: RESPDecoder.Limits

    private static let cr = UInt8(ascii: "\r"), lf = UInt8(ascii: "\n")

    func value(at start: Int, depth: Int) -> ParseOutcome {
        guard start < bytes.count else { return .incomplete }
        let type = bytes[start]
        switch type {
        case UInt8(ascii: "+"), UInt8(ascii: "-"):
            switch line(from: start + 1) {
            case .found(let range):
                let text = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[range]), as: UTF8.self)
                return .complete(type == UInt8(ascii: "+") ? .simpleString(text) : .error(text), range.upperBound + 2)
            case .incomplete: return .incomplete
            case .malformed(let reason): return .malformed(reason)
            }
        case UInt8(ascii: ":"):
            switch number(from: start + 1) {
            case .found(let number, let end): return .complete(.integer(number), end)
            case .incomplete: return .incomplete
            case .malformed(let reason): return .malformed(reason)
            }
        case UInt8(ascii: "$"):
            return bulkString(from: start + 1)
        case UInt8(ascii: "*"):
            return array(from: start + 1, depth: depth + 1)
        default:
            return .malformed("unknown type byte 0x\(String(type, radix: 16)) at offset \(start)")
        }
    }

    private func bulkString(from start: Int) -> ParseOutcome {
        let length: Int64, contentStart: Int
        switch number(from: start) {
        case .found(let number, let end): (length, contentStart) = (number, end)
        case .incomplete: return .incomplete
        case .malformed(let reason): return .malformed(reason)
        }
        if length == -1 { return .complete(.bulkString(nil), contentStart) }
        guard length >= 0 else { return .malformed("negative bulk length \(length)") }
        guard length <= Int64(limits.maxBulkLength) else {
            return .malformed("bulk length \(length) exceeds the limit of \(limits.maxBulkLength)")
        }
        let contentEnd = contentStart + Int(length)
        guard contentEnd + 2 <= bytes.count else { return .incomplete }
        guard bytes[contentEnd] == Self.cr, bytes[contentEnd + 1] == Self.lf else {
            return .malformed("bulk string of length \(length) not followed by CRLF")
        }
        return .complete(.bulkString(Array(bytes[contentStart..<contentEnd])), contentEnd + 2)
    }

    private func array(from start: Int, depth: Int) -> ParseOutcome {
        let count: Int64
        var offset: Int
        switch number(from: start) {
        case .found(let number, let end): (count, offset) = (number, end)
        case .incomplete: return .incomplete
        case .malformed(let reason): return .malformed(reason)
        }
        if count == -1 { return .complete(.array(nil), offset) }
        guard count >= 0 else { return .malformed("negative array length \(count)") }
        guard count <= Int64(limits.maxArrayLength) else {
            return .malformed("array length \(count) exceeds the limit of \(limits.maxArrayLength)")
        }
        guard depth <= limits.maxDepth else {
            return .malformed("arrays nested deeper than \(limits.maxDepth)")
        }
        var elements: [RESPValue] = []
        elements.reserveCapacity(min(Int(count), 64))
        for _ in 0..<count {
            switch value(at: offset, depth: depth) {
            case .complete(let element, let end):
                elements.append(element)
                offset = end
            case .incomplete: return .incomplete
            case .malformed(let reason): return .malformed(reason)
            }
        }
        return .complete(.array(elements), offset)
    }

    private enum LineOutcome {
        /// The line's content, CRLF excluded (the CRLF follows `range.upperBound`).
        case found(Range<Int>)
        case incomplete
        case malformed(String)
    }

    private func line(from start: Int) -> LineOutcome {
        var index = start
        while index < bytes.count {
            if index - start > limits.maxLineLength {
                return .malformed("a line longer than \(limits.maxLineLength) bytes")
            }
            switch bytes[index] {
            case Self.cr:
                guard index + 1 < bytes.count else { return .incomplete }
                guard bytes[index + 1] == Self.lf else { return .malformed("CR not followed by LF at offset \(index)") }
                return .found(start..<index)
            case Self.lf:
                return .malformed("LF without CR at offset \(index)")
            default:
                index += 1
            }
        }
        return index - start > limits.maxLineLength ? .malformed("a line longer than \(limits.maxLineLength) bytes") : .incomplete
    }

    private enum NumberOutcome {
        case found(Int64, Int)
        case incomplete
        case malformed(String)
    }

    /// A signed decimal 64-bit integer line: `-?[0-9]+` then CRLF; no `+`, no spaces, no overflow.
    private func number(from start: Int) -> NumberOutcome {
        let range: Range<Int>
        switch line(from: start) {
        case .found(let found): range = found
        case .incomplete: return .incomplete
        case .malformed(let reason): return .malformed(reason)
        }
        var index = range.lowerBound
        let negative = index < range.upperBound && bytes[index] == UInt8(ascii: "-")
        if negative { index += 1 }
        guard index < range.upperBound, range.upperBound - index <= 19 else {
            return .malformed("bad number at offset \(start)")
        }
        var magnitude: Int64 = 0
        while index < range.upperBound {
            let digit = bytes[index] &- UInt8(ascii: "0")
            guard digit <= 9 else { return .malformed("bad digit in a number at offset \(index)") }
            let (times10, overflow1) = magnitude.multipliedReportingOverflow(by: 10)
            let (sum, overflow2) = times10.addingReportingOverflow(Int64(digit))
            guard !overflow1, !overflow2 else { return .malformed("number out of range at offset \(start)") }
            magnitude = sum
            index += 1
        }
        return .found(negative ? -magnitude : magnitude, range.upperBound + 2)
    }
}
