/// Typed access to decoded items. Each accessor throws ``CBORError/typeMismatch(expected:found:offset:)`` naming
/// what was expected, what was found and the byte offset of the item.
extension CBOR.Decoded {
    private func mismatch(_ expected: String) -> CBORError {
        .typeMismatch(expected: expected, found: kindDescription, offset: offset)
    }

    /// An unsigned or negative integer that fits `Int`.
    public func int() throws(CBORError) -> Int {
        let value = try int64()
        guard let result = Int(exactly: value) else { throw .integerOutOfRange("Int", offset: offset) }
        return result
    }

    /// An unsigned or negative integer that fits `Int64`.
    public func int64() throws(CBORError) -> Int64 {
        let node = self.node
        switch node.major {
        case 0:
            guard node.argument <= UInt64(Int64.max) else { throw .integerOutOfRange("Int64", offset: offset) }
            return Int64(node.argument)
        case 1:
            guard node.argument <= UInt64(Int64.max) else { throw .integerOutOfRange("Int64", offset: offset) }
            return -1 - Int64(node.argument)
        default:
            throw mismatch("integer")
        }
    }

    /// An unsigned integer (major type 0).
    public func uint64() throws(CBORError) -> UInt64 {
        guard node.major == 0 else { throw mismatch("unsigned integer") }
        return node.argument
    }

    /// A byte string's payload. For a definite-length string this is a slice of the input (no copy); the chunks of
    /// an indefinite-length one are joined.
    public func bytes() throws(CBORError) -> ArraySlice<UInt8> {
        let node = self.node
        guard node.major == 2 else { throw mismatch("byte string") }
        if !node.isIndefinite { return document.bytes[node.contentStart..<node.end] }
        var joined: [UInt8] = []
        for chunk in children { joined.append(contentsOf: chunk.rawBytes.dropFirst(chunk.node.contentStart - chunk.node.start)) }
        return joined[...]
    }

    /// A text string.
    public func text() throws(CBORError) -> String {
        let node = self.node
        guard node.major == 3 else { throw mismatch("text string") }
        if !node.isIndefinite {
            // Straight from the input's bytes, checked as UTF-8 when parsed (RFC 8949 §3.1), without building a value.
            return document.bytes.withUnsafeBufferPointer {
                String(decoding: UnsafeBufferPointer(rebasing: $0[node.contentStart..<node.end]), as: UTF8.self)
            }
        }
        guard case .text(let text) = value.definite else { throw mismatch("text string") }
        return text
    }

    /// `true` or `false`.
    public func bool() throws(CBORError) -> Bool {
        guard node.major == 7, node.info == 20 || node.info == 21 else { throw mismatch("boolean") }
        return node.info == 21
    }

    /// A floating-point number of any width.
    public func double() throws(CBORError) -> Double {
        guard case .float(let value, _) = value, node.major == 7 else { throw mismatch("float") }
        return value
    }

    /// Whether the item is null.
    public var isNull: Bool { node.major == 7 && node.info == 22 }

    /// The elements of an array.
    public func array() throws(CBORError) -> [CBOR.Decoded] {
        guard node.major == 4 else { throw mismatch("array") }
        return children
    }

    /// The element at `index` of an array.
    public func element(_ position: Int) throws(CBORError) -> CBOR.Decoded {
        let elements = try array()
        guard position >= 0 && position < elements.count else {
            throw .indexOutOfRange(index: position, count: elements.count, offset: offset)
        }
        return elements[position]
    }

    /// The pairs of a map, in the order received.
    public func map() throws(CBORError) -> [(key: CBOR.Decoded, value: CBOR.Decoded)] {
        guard node.major == 5 else { throw mismatch("map") }
        let all = children
        var pairs: [(key: CBOR.Decoded, value: CBOR.Decoded)] = []
        pairs.reserveCapacity(all.count / 2)
        var position = 0
        while position + 1 < all.count {
            pairs.append((all[position], all[position + 1]))
            position += 2
        }
        return pairs
    }

    /// The tag number and content of a tag.
    public func tag() throws(CBORError) -> (tag: UInt64, content: CBOR.Decoded) {
        guard node.major == 6 else { throw mismatch("tag") }
        return (node.argument, CBOR.Decoded(document, index + 1))
    }

    /// The content of tag `number`.
    public func content(ofTag number: UInt64) throws(CBORError) -> CBOR.Decoded {
        guard node.major == 6, node.argument == number else { throw mismatch("tag \(number)") }
        return CBOR.Decoded(document, index + 1)
    }

    /// The value of `key` in a map; `nil` when this is not a map or the key is absent. Keys compare in the data
    /// model (a key encoded with a longer head still matches).
    public subscript(key: CBOR) -> CBOR.Decoded? {
        guard node.major == 5 else { return nil }
        var child = index + 1
        let nodes = document.nodes
        for _ in 0..<node.argument {
            let valueIndex = child + nodes[child].subtreeSize
            if keyMatches(child, key) { return CBOR.Decoded(document, valueIndex) }
            child = valueIndex + nodes[valueIndex].subtreeSize
        }
        return nil
    }

    /// The value of a text key in a map.
    public subscript(key: String) -> CBOR.Decoded? { self[.text(key)] }

    /// The value of an integer key in a map (COSE labels, ISO 18013-5 integer keys).
    public subscript(key: Int) -> CBOR.Decoded? { self[.int(key)] }

    /// The value of `key` in a map, or ``CBORError/missingKey(_:offset:)``.
    public func value(forKey key: CBOR) throws(CBORError) -> CBOR.Decoded {
        guard node.major == 5 else { throw mismatch("map") }
        guard let found = self[key] else { throw .missingKey(key.diagnosticNotation, offset: offset) }
        return found
    }

    /// The value of a text key in a map, or ``CBORError/missingKey(_:offset:)``.
    public func value(forKey key: String) throws(CBORError) -> CBOR.Decoded { try value(forKey: .text(key)) }

    /// The value of an integer key in a map, or ``CBORError/missingKey(_:offset:)``.
    public func value(forKey key: Int) throws(CBORError) -> CBOR.Decoded { try value(forKey: .int(key)) }

    private func keyMatches(_ keyIndex: Int, _ key: CBOR) -> Bool {
        let node = document.nodes[keyIndex]
        switch key {
        case .unsigned(let value): return node.major == 0 && node.argument == value
        case .negative(let value): return node.major == 1 && node.argument == value
        case .text(let text) where node.major == 3 && !node.isIndefinite:
            var text = text
            let length = node.end - node.contentStart
            return text.withUTF8 { utf8 in
                guard utf8.count == length else { return false }
                return document.bytes.withUnsafeBufferPointer { bytes in
                    for offset in 0..<length where bytes[node.contentStart + offset] != utf8[offset] { return false }
                    return true
                }
            }
        default:
            return CBOR.Decoded(document, keyIndex).value.isSameDataModelValue(as: key)
        }
    }
}
