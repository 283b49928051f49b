/// The parsed form of one input: the bytes as received and one ``CBORNode`` per item. Immutable once built.
final class CBORDocument: Sendable {
    let bytes: [UInt8]
    let nodes: [CBORNode]
    let roots: [Int]

    init(bytes: [UInt8], nodes: [CBORNode], roots: [Int]) {
        self.bytes = bytes
        self.nodes = nodes
        self.roots = roots
    }

    /// Parses `range` of `bytes`: one item filling it, or (with `sequence`) zero or more items (RFC 8742), or (with
    /// `prefix`) one item at its start.
    static func parse(_ bytes: [UInt8], range: Range<Int>, options: CBOR.DecodingOptions,
                      mode: Mode) throws(CBORError) -> CBORDocument {
        guard range.count <= options.maximumInputLength else {
            throw .inputTooLarge(length: range.count, limit: options.maximumInputLength)
        }
        let result: Result<([CBORNode], [Int]), CBORError> = bytes.withUnsafeBufferPointer { buffer in
            var parser = CBORParser(buffer: buffer, range: range, options: options)
            var roots: [Int] = []
            do {
                repeat {
                    if mode == .sequence && parser.position == range.upperBound { break }
                    if parser.position < range.upperBound && buffer[parser.position] == 0xff {
                        throw CBORError.unexpectedBreak(offset: parser.position)
                    }
                    roots.append(try parser.parseItem(depth: 0))
                } while mode == .sequence
                if mode == .single && parser.position != range.upperBound {
                    throw CBORError.trailingBytes(offset: parser.position)
                }
            } catch let error as CBORError {
                return .failure(error)
            } catch {
                return .failure(.invalidValue("\(error)", offset: nil))
            }
            return .success((parser.nodes, roots))
        }
        let (nodes, roots) = try result.get()
        return CBORDocument(bytes: bytes, nodes: nodes, roots: roots)
    }

    enum Mode { case single, sequence, prefix }
}

extension CBOR {
    /// A data item as decoded from received bytes, with the exact bytes it came from (RFC 8949 §3).
    ///
    /// Signatures and digests (COSE, ISO 18013-5 MSO value digests) are computed over ``rawBytes`` — the bytes as
    /// received — never over a re-encoding. A `Decoded` is a cheap handle (a shared buffer and an index): navigating
    /// into arrays, maps and tags copies nothing, and offsets are positions in the original input.
    public struct Decoded: Sendable {
        let document: CBORDocument
        let index: Int

        init(_ document: CBORDocument, _ index: Int) {
            self.document = document
            self.index = index
        }

        var node: CBORNode { document.nodes[index] }

        /// The byte offset of this item's head in the input.
        public var offset: Int { node.start }
        /// Where this item's encoding lies in the input.
        public var byteRange: Range<Int> { node.start..<node.end }
        /// The exact bytes this item was decoded from (head, content, and for indefinite items the break byte).
        /// Indices of the slice are offsets in the input.
        public var rawBytes: ArraySlice<UInt8> { document.bytes[node.start..<node.end] }
        /// The whole input this item is part of.
        public var input: [UInt8] { document.bytes }
        /// The major type (RFC 8949 §3.1).
        public var majorType: UInt8 { node.major }
        /// Whether the item was encoded with an indefinite length (RFC 8949 §3.2).
        public var isIndefiniteLength: Bool { node.isIndefinite }
        /// For a float, the width it was encoded in.
        public var floatWidth: FloatWidth? {
            node.major == 7 ? FloatWidth(rawValue: node.info) : nil
        }
        /// The number of elements of an array, pairs of a map, or bytes of a definite-length string.
        public var count: Int? {
            switch node.major {
            case 4, 5: Int(node.argument)
            case 2, 3: node.isIndefinite ? nil : node.end - node.contentStart
            default: nil
            }
        }

        /// The item as a value. Encoding choices the value type keeps (float width, indefinite lengths) are kept.
        public var value: CBOR {
            document.bytes.withUnsafeBufferPointer { NodeMaterializer(buffer: $0, nodes: document.nodes).value(index) }
        }

        /// The children of an array, the keys and values of a map alternately, the content of a tag or the chunks
        /// of an indefinite-length string.
        var children: [Decoded] {
            let node = self.node
            let count: UInt64
            switch node.major {
            case 4: count = node.argument
            case 5: count = node.argument * 2
            case 6: count = 1
            case 2, 3: count = node.isIndefinite ? node.argument : 0
            default: count = 0
            }
            var result: [Decoded] = []
            result.reserveCapacity(Int(count))
            var child = index + 1
            for _ in 0..<count {
                result.append(Decoded(document, child))
                child += document.nodes[child].subtreeSize
            }
            return result
        }
    }

    // MARK: decoding entry points

    /// Decodes exactly one item filling `bytes`; trailing bytes are an error.
    public static func decode(_ bytes: [UInt8], options: DecodingOptions = .default) throws(CBORError) -> Decoded {
        let document = try CBORDocument.parse(bytes, range: 0..<bytes.count, options: options, mode: .single)
        return Decoded(document, document.roots[0])
    }

    /// Decodes exactly one item from any collection of bytes (copied once into a contiguous buffer).
    public static func decode<Bytes: Collection<UInt8>>(_ bytes: Bytes,
                                                        options: DecodingOptions = .default) throws(CBORError) -> Decoded {
        try decode(Array(bytes), options: options)
    }

    /// Decodes one item at `offset` and ignores what follows it; the item's `byteRange.upperBound` is where the
    /// next one begins.
    public static func decodePrefix(_ bytes: [UInt8], at offset: Int = 0,
                                    options: DecodingOptions = .default) throws(CBORError) -> Decoded {
        guard offset >= 0 && offset <= bytes.count else { throw .unexpectedEnd(offset: offset) }
        let document = try CBORDocument.parse(bytes, range: offset..<bytes.count, options: options, mode: .prefix)
        return Decoded(document, document.roots[0])
    }

    /// Decodes a CBOR sequence (RFC 8742): zero or more items one after the other.
    public static func decodeSequence(_ bytes: [UInt8], options: DecodingOptions = .default) throws(CBORError) -> [Decoded] {
        let document = try CBORDocument.parse(bytes, range: 0..<bytes.count, options: options, mode: .sequence)
        return document.roots.map { Decoded(document, $0) }
    }

    /// Decodes exactly one item filling `bytes` into a value.
    public init(decoding bytes: [UInt8], options: DecodingOptions = .default) throws(CBORError) {
        self = try CBOR.decode(bytes, options: options).value
    }
}

extension CBOR.Decoded {
    /// RFC 8949 §3.4.5.1 "bstr .cbor": decodes the item embedded in this byte string, or in the byte string that
    /// this tag 24 wraps. The embedded item shares the input's buffer; its offsets and raw bytes are positions in
    /// the original input, so both the bytes and the decoded item stay available.
    public func embedded(options: CBOR.DecodingOptions = .default) throws(CBORError) -> CBOR.Decoded {
        var target = self
        if node.major == 6 {
            guard node.argument == CBOR.Tag.encodedCBOR else {
                throw .typeMismatch(expected: "tag 24 or byte string", found: kindDescription, offset: offset)
            }
            target = CBOR.Decoded(document, index + 1)
        }
        guard target.node.major == 2 else {
            throw .typeMismatch(expected: "byte string", found: target.kindDescription, offset: target.offset)
        }
        if target.node.isIndefinite {
            let joined = Array(try target.bytes())
            return try CBOR.decode(joined, options: options)
        }
        let range = target.node.contentStart..<target.node.end
        let inner = try CBORDocument.parse(document.bytes, range: range, options: options, mode: .single)
        return CBOR.Decoded(inner, inner.roots[0])
    }

    /// The payload of a definite-length byte string without copying (for tag 24, the bytes the embedded item was
    /// decoded from).
    public var embeddedBytes: ArraySlice<UInt8>? {
        var target = self
        if node.major == 6 && node.argument == CBOR.Tag.encodedCBOR { target = CBOR.Decoded(document, index + 1) }
        guard target.node.major == 2, !target.node.isIndefinite else { return nil }
        return document.bytes[target.node.contentStart..<target.node.end]
    }

    /// A name for the kind of item, used in error messages.
    public var kindDescription: String {
        let node = self.node
        switch node.major {
        case 0: return "unsigned integer"
        case 1: return "negative integer"
        case 2: return "byte string"
        case 3: return "text string"
        case 4: return "array"
        case 5: return "map"
        case 6: return "tag \(node.argument)"
        default:
            switch node.info {
            case 20, 21: return "boolean"
            case 22: return "null"
            case 23: return "undefined"
            case 25, 26, 27: return "float"
            default: return "simple value"
            }
        }
    }
}

extension CBOR.Decoded: CustomStringConvertible {
    public var description: String { value.diagnosticNotation }
}

/// Builds ``CBOR`` values from parsed nodes.
struct NodeMaterializer {
    let buffer: UnsafeBufferPointer<UInt8>
    let nodes: [CBORNode]

    func value(_ index: Int) -> CBOR {
        let node = nodes[index]
        switch node.major {
        case 0: return .unsigned(node.argument)
        case 1: return .negative(node.argument)
        case 2:
            if node.isIndefinite { return .indefinite(.bytes(childIndices(index).map { bytes(nodes[$0]) })) }
            return .bytes(bytes(node))
        case 3:
            if node.isIndefinite { return .indefinite(.text(childIndices(index).map { text(nodes[$0]) })) }
            return .text(text(node))
        case 4:
            var items: [CBOR] = []
            items.reserveCapacity(Int(node.argument))
            var child = index + 1
            for _ in 0..<node.argument {
                items.append(value(child))
                child += nodes[child].subtreeSize
            }
            return node.isIndefinite ? .indefinite(.array(items)) : .array(items)
        case 5:
            var pairs: [CBOR.Pair] = []
            pairs.reserveCapacity(Int(node.argument))
            var child = index + 1
            for _ in 0..<node.argument {
                let valueIndex = child + nodes[child].subtreeSize
                pairs.append(CBOR.Pair(value(child), value(valueIndex)))
                child = valueIndex + nodes[valueIndex].subtreeSize
            }
            return node.isIndefinite ? .indefinite(.map(pairs)) : .map(pairs)
        case 6:
            return .tagged(node.argument, value(index + 1))
        default:
            switch node.info {
            case 20: return .bool(false)
            case 21: return .bool(true)
            case 22: return .null
            case 23: return .undefined
            case 25: return .float(FloatCoding.double(fromHalf: UInt16(truncatingIfNeeded: node.argument)), .half)
            case 26: return .float(FloatCoding.double(fromSingle: UInt32(truncatingIfNeeded: node.argument)), .single)
            case 27: return .float(Double(bitPattern: node.argument), .double)
            default: return .simple(UInt8(truncatingIfNeeded: node.argument))
            }
        }
    }

    private func childIndices(_ index: Int) -> [Int] {
        var result: [Int] = []
        var child = index + 1
        for _ in 0..<nodes[index].argument {
            result.append(child)
            child += nodes[child].subtreeSize
        }
        return result
    }

    @inline(__always)
    private func bytes(_ node: CBORNode) -> [UInt8] {
        Array(UnsafeBufferPointer(rebasing: buffer[node.contentStart..<node.end]))
    }

    @inline(__always)
    private func text(_ node: CBORNode) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: buffer[node.contentStart..<node.end]), as: UTF8.self)
    }
}
