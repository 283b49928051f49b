/// One data item of a parsed input, laid out in pre-order: the children of a node follow it, each child's subtree
/// taking `subtreeSize` slots.
struct CBORNode: Sendable {
    /// Offset of the head (the initial byte).
    var start: Int
    /// Offset just after the head: the payload of a definite-length string starts here.
    var contentStart: Int
    /// Offset just after the item, including an indefinite item's break byte.
    var end: Int
    /// The head's argument: integer, length, count, tag number, simple value or float bits. For indefinite-length
    /// items, the number of chunks, elements or pairs found.
    var argument: UInt64
    /// Number of nodes in this subtree, itself included.
    var subtreeSize: Int
    var major: UInt8
    /// The head's additional information (31 for an indefinite length; 25…27 give a float's width).
    var info: UInt8

    var isIndefinite: Bool { info == 31 }
}

/// A recursive-descent reader over a contiguous buffer (RFC 8949 §3, Appendix C) that checks well-formedness and
/// validity as it goes and records every item as a ``CBORNode``.
struct CBORParser: ~Copyable {
    let buffer: UnsafeBufferPointer<UInt8>
    let limit: Int
    let options: CBOR.DecodingOptions
    var position: Int
    var nodes: [CBORNode] = []

    init(buffer: UnsafeBufferPointer<UInt8>, range: Range<Int>, options: CBOR.DecodingOptions) {
        self.buffer = buffer
        self.limit = range.upperBound
        self.position = range.lowerBound
        self.options = options
        nodes.reserveCapacity(max(4, (range.count / 4)))
    }

    @inline(__always)
    private mutating func readArgument(_ info: UInt8, at start: Int) throws(CBORError) -> UInt64 {
        if info < 24 { return UInt64(info) }
        let size: Int
        switch info {
        case 24: size = 1
        case 25: size = 2
        case 26: size = 4
        case 27: size = 8
        default: throw .reservedAdditionalInfo(offset: start, value: info)
        }
        guard limit - position >= size else { throw .unexpectedEnd(offset: limit) }
        var value: UInt64 = 0
        for index in position..<(position + size) {
            value = value << 8 | UInt64(buffer[index])
        }
        position += size
        return value
    }

    /// Parses one item at `position` and returns its node index.
    @discardableResult
    mutating func parseItem(depth: Int) throws(CBORError) -> Int {
        let start = position
        guard position < limit else { throw .unexpectedEnd(offset: position) }
        guard nodes.count < options.maximumItemCount else {
            throw .itemLimitExceeded(offset: start, limit: options.maximumItemCount)
        }
        let initial = buffer[position]
        position += 1
        let major = initial >> 5
        let info = initial & 0x1f
        let index = nodes.count

        if info == 31 {
            return try parseIndefinite(major: major, start: start, depth: depth)
        }
        let argument = try readArgument(info, at: start)
        nodes.append(CBORNode(start: start, contentStart: position, end: position, argument: argument,
                              subtreeSize: 1, major: major, info: info))
        switch major {
        case 0, 1:
            break
        case 2, 3:
            let remaining = limit - position
            guard argument <= UInt64(remaining) else {
                throw .lengthExceedsInput(offset: start, declared: argument, remaining: remaining)
            }
            let length = Int(argument)
            if major == 3 {
                guard UTF8Validation.isValid(buffer, position..<(position + length)) else {
                    throw .invalidUTF8(offset: start)
                }
            }
            position += length
        case 4:
            let remaining = limit - position
            guard argument <= UInt64(remaining) else {
                throw .lengthExceedsInput(offset: start, declared: argument, remaining: remaining)
            }
            guard depth < options.maximumDepth else {
                throw .depthLimitExceeded(offset: start, limit: options.maximumDepth)
            }
            for _ in 0..<Int(argument) { try parseItem(depth: depth + 1) }
        case 5:
            let remaining = limit - position
            guard argument <= UInt64(remaining / 2) else {
                throw .lengthExceedsInput(offset: start, declared: argument, remaining: remaining)
            }
            guard depth < options.maximumDepth else {
                throw .depthLimitExceeded(offset: start, limit: options.maximumDepth)
            }
            for _ in 0..<Int(argument) {
                try parseItem(depth: depth + 1)
                try parseItem(depth: depth + 1)
            }
            if options.rejectsDuplicateMapKeys && argument > 1 {
                try checkDuplicateKeys(map: index)
            }
        case 6:
            guard depth < options.maximumDepth else {
                throw .depthLimitExceeded(offset: start, limit: options.maximumDepth)
            }
            try parseItem(depth: depth + 1)
        default:
            if info == 24 && argument < 32 {
                throw .invalidSimpleValue(offset: start, value: UInt8(truncatingIfNeeded: argument))
            }
        }
        nodes[index].end = position
        nodes[index].subtreeSize = nodes.count - index
        return index
    }

    private mutating func parseIndefinite(major: UInt8, start: Int, depth: Int) throws(CBORError) -> Int {
        let index = nodes.count
        switch major {
        case 0, 1, 6: throw .indefiniteLengthNotAllowed(offset: start, majorType: major)
        case 7: throw .unexpectedBreak(offset: start)
        default: break
        }
        guard depth < options.maximumDepth else {
            throw .depthLimitExceeded(offset: start, limit: options.maximumDepth)
        }
        nodes.append(CBORNode(start: start, contentStart: position, end: position, argument: 0,
                              subtreeSize: 1, major: major, info: 31))
        var count: UInt64 = 0
        while true {
            guard position < limit else { throw .unexpectedEnd(offset: position) }
            if buffer[position] == 0xff {
                position += 1
                break
            }
            if major == 2 || major == 3 {
                let chunkStart = position
                let chunkHead = buffer[position]
                guard chunkHead >> 5 == major, chunkHead & 0x1f != 31 else {
                    throw .invalidChunk(offset: chunkStart, majorType: major)
                }
                try parseItem(depth: depth + 1)
            } else if major == 4 {
                try parseItem(depth: depth + 1)
            } else {
                try parseItem(depth: depth + 1)
                guard position < limit else { throw .unexpectedEnd(offset: position) }
                if buffer[position] == 0xff { throw .unexpectedBreak(offset: position) }
                try parseItem(depth: depth + 1)
            }
            count += 1
        }
        nodes[index].argument = count
        nodes[index].end = position
        nodes[index].subtreeSize = nodes.count - index
        if major == 5 && options.rejectsDuplicateMapKeys && count > 1 {
            try checkDuplicateKeys(map: index)
        }
        return index
    }

    // MARK: duplicate keys (RFC 8949 §5.6)

    private func checkDuplicateKeys(map index: Int) throws(CBORError) {
        let count = Int(nodes[index].argument)
        // Up to 16 keys (nearly every map: COSE headers, ISO 18013-5 structures), each pair compared in place, with
        // no list of keys made; integer keys (an MSO's digestIDs) by their values; others hashed.
        if count <= 16 {
            let comparison = NodeComparison(buffer: buffer, nodes: nodes)
            var key = index + 1
            for _ in 0..<count {
                var earlier = index + 1
                while earlier < key {
                    if comparison.equal(key, earlier) { throw .duplicateMapKey(offset: nodes[key].start) }
                    earlier += nodes[earlier].subtreeSize
                    earlier += nodes[earlier].subtreeSize
                }
                key += nodes[key].subtreeSize
                key += nodes[key].subtreeSize
            }
            return
        }
        let keys = NodeComparison.mapKeys(nodes, map: index)
        switch integerKeys(keys) {
        case .distinct: return
        case .duplicate(let key): throw .duplicateMapKey(offset: nodes[key].start)
        case .notIntegers: break
        }
        let comparison = NodeComparison(buffer: buffer, nodes: nodes)
        var hashed = keys.map { (hash: comparison.hash($0), node: $0) }
        hashed.sort { $0.hash < $1.hash || ($0.hash == $1.hash && $0.node < $1.node) }
        var runStart = 0
        for i in 1...hashed.count {
            if i < hashed.count && hashed[i].hash == hashed[runStart].hash { continue }
            if i - runStart > 1 {
                for a in (runStart + 1)..<i {
                    for b in runStart..<a where comparison.equal(hashed[a].node, hashed[b].node) {
                        throw .duplicateMapKey(offset: nodes[max(hashed[a].node, hashed[b].node)].start)
                    }
                }
            }
            runStart = i
        }
    }
}

extension CBORParser {
    fileprivate enum IntegerKeys { case notIntegers, distinct, duplicate(Int) }

    /// When every key is an integer (major type 0 or 1, as an MSO's digestIDs): an integer's value in the data model
    /// is its major type and argument, whatever the head's width, so the keys are distinct when those values, sorted,
    /// are strictly ascending — checked without hashing (they usually arrive ascending, RFC 8949 §4.2.1). A duplicate
    /// is the later of two equal keys.
    fileprivate func integerKeys(_ keys: [Int]) -> IntegerKeys {
        var values: [(value: UInt64, node: Int)] = []
        values.reserveCapacity(keys.count)
        var ascending = true
        for key in keys {
            let node = nodes[key]
            guard node.major <= 1, node.argument < 1 << 63 else { return .notIntegers }
            // One order over both: negative integers (-1 - argument) below 2^63, unsigned ones from 2^63 up.
            let value = node.major == 0 ? node.argument | 1 << 63 : (1 << 63) - 1 - node.argument
            if let last = values.last, last.value >= value { ascending = false }
            values.append((value, key))
        }
        if !ascending { values.sort { $0.value < $1.value || ($0.value == $1.value && $0.node < $1.node) } }
        for position in values.indices.dropFirst() where values[position].value == values[position - 1].value {
            return .duplicate(values[position].node)
        }
        return .distinct
    }
}

/// Compares parsed items in the CBOR data model: the encoding (head width, indefinite length, float width) does not
/// matter, the value does.
struct NodeComparison {
    let buffer: UnsafeBufferPointer<UInt8>
    let nodes: [CBORNode]

    static func mapKeys(_ nodes: [CBORNode], map index: Int) -> [Int] {
        var keys: [Int] = []
        keys.reserveCapacity(Int(nodes[index].argument))
        var child = index + 1
        for _ in 0..<nodes[index].argument {
            keys.append(child)
            child += nodes[child].subtreeSize
            child += nodes[child].subtreeSize
        }
        return keys
    }

    private func floatValue(_ node: CBORNode) -> Double? {
        switch node.info {
        case 25: FloatCoding.double(fromHalf: UInt16(truncatingIfNeeded: node.argument))
        case 26: FloatCoding.double(fromSingle: UInt32(truncatingIfNeeded: node.argument))
        case 27: Double(bitPattern: node.argument)
        default: nil
        }
    }

    /// Calls `body` with each contiguous piece of a string's payload.
    private func forEachPiece(_ index: Int, _ body: (Range<Int>) -> Void) {
        let node = nodes[index]
        if !node.isIndefinite {
            body(node.contentStart..<node.end)
            return
        }
        var child = index + 1
        for _ in 0..<node.argument {
            body(nodes[child].contentStart..<nodes[child].end)
            child += nodes[child].subtreeSize
        }
    }

    private func stringContent(_ index: Int) -> [UInt8] {
        var result: [UInt8] = []
        forEachPiece(index) { result.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[$0])) }
        return result
    }

    func equal(_ a: Int, _ b: Int) -> Bool {
        let x = nodes[a], y = nodes[b]
        guard x.major == y.major else { return false }
        switch x.major {
        case 0, 1:
            return x.argument == y.argument
        case 2, 3:
            if !x.isIndefinite && !y.isIndefinite {
                guard x.end - x.contentStart == y.end - y.contentStart else { return false }
                return UnsafeBufferPointer(rebasing: buffer[x.contentStart..<x.end])
                    .elementsEqual(UnsafeBufferPointer(rebasing: buffer[y.contentStart..<y.end]))
            }
            return stringContent(a) == stringContent(b)
        case 4, 5:
            guard x.argument == y.argument else { return false }
            let count = x.major == 4 ? x.argument : x.argument * 2
            var i = a + 1, j = b + 1
            for _ in 0..<count {
                if !equal(i, j) { return false }
                i += nodes[i].subtreeSize
                j += nodes[j].subtreeSize
            }
            return true
        case 6:
            return x.argument == y.argument && equal(a + 1, b + 1)
        default:
            let xf = floatValue(x), yf = floatValue(y)
            if let xf, let yf { return xf.bitPattern == yf.bitPattern || (xf.isNaN && yf.isNaN) }
            if xf != nil || yf != nil { return false }
            return x.argument == y.argument
        }
    }

    /// A hash consistent with ``equal(_:_:)`` (FNV-1a over the value, so that string chunking does not matter).
    func hash(_ index: Int) -> UInt64 {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        @inline(__always) func mix(_ byte: UInt8) { h = (h ^ UInt64(byte)) &* 0x100_0000_01b3 }
        @inline(__always) func mix64(_ value: UInt64) { for shift in stride(from: 0, to: 64, by: 8) { mix(UInt8(truncatingIfNeeded: value >> UInt64(shift))) } }
        let node = nodes[index]
        mix(node.major)
        switch node.major {
        case 0, 1, 6:
            mix64(node.argument)
            if node.major == 6 { mix64(hash(index + 1)) }
        case 2, 3:
            forEachPiece(index) { range in for i in range { mix(buffer[i]) } }
        case 4, 5:
            mix64(node.argument)
            var child = index + 1
            for _ in 0..<(node.major == 4 ? node.argument : node.argument * 2) {
                mix64(hash(child))
                child += nodes[child].subtreeSize
            }
        default:
            if let value = floatValue(node) {
                mix(1)
                mix64(value.isNaN ? Double.nan.bitPattern : value.bitPattern)
            } else {
                mix64(node.argument)
            }
        }
        return h
    }
}
