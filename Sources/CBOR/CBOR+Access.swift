/// Typed access to values, mirroring ``CBOR/Decoded``'s accessors (values have no byte offset, so errors carry
/// none). Indefinite-length items read like their definite forms.
extension CBOR {
    /// A name for the kind of item, used in error messages.
    public var kindDescription: String {
        switch self {
        case .unsigned: "unsigned integer"
        case .negative: "negative integer"
        case .bytes: "byte string"
        case .text: "text string"
        case .array: "array"
        case .map: "map"
        case .tagged(let tag, _): "tag \(tag)"
        case .simple: "simple value"
        case .bool: "boolean"
        case .null: "null"
        case .undefined: "undefined"
        case .float: "float"
        case .indefinite(let item):
            switch item {
            case .bytes: "byte string"
            case .text: "text string"
            case .array: "array"
            case .map: "map"
            }
        }
    }

    private func mismatch(_ expected: String) -> CBORError {
        .typeMismatch(expected: expected, found: kindDescription, offset: nil)
    }

    public func int() throws(CBORError) -> Int {
        let value = try int64()
        guard let result = Int(exactly: value) else { throw .integerOutOfRange("Int", offset: nil) }
        return result
    }

    public func int64() throws(CBORError) -> Int64 {
        switch self {
        case .unsigned(let value):
            guard value <= UInt64(Int64.max) else { throw .integerOutOfRange("Int64", offset: nil) }
            return Int64(value)
        case .negative(let value):
            guard value <= UInt64(Int64.max) else { throw .integerOutOfRange("Int64", offset: nil) }
            return -1 - Int64(value)
        default:
            throw mismatch("integer")
        }
    }

    public func uint64() throws(CBORError) -> UInt64 {
        guard case .unsigned(let value) = self else { throw mismatch("unsigned integer") }
        return value
    }

    public func bytes() throws(CBORError) -> [UInt8] {
        guard case .bytes(let value) = definite else { throw mismatch("byte string") }
        return value
    }

    public func text() throws(CBORError) -> String {
        guard case .text(let value) = definite else { throw mismatch("text string") }
        return value
    }

    public func bool() throws(CBORError) -> Bool {
        guard case .bool(let value) = self else { throw mismatch("boolean") }
        return value
    }

    public func double() throws(CBORError) -> Double {
        guard case .float(let value, _) = self else { throw mismatch("float") }
        return value
    }

    public var isNull: Bool {
        if case .null = self { return true }
        return false
    }

    public func array() throws(CBORError) -> [CBOR] {
        guard case .array(let value) = definite else { throw mismatch("array") }
        return value
    }

    public func map() throws(CBORError) -> [Pair] {
        guard case .map(let value) = definite else { throw mismatch("map") }
        return value
    }

    public func tag() throws(CBORError) -> (tag: UInt64, content: CBOR) {
        guard case .tagged(let tag, let content) = self else { throw mismatch("tag") }
        return (tag, content)
    }

    public func content(ofTag number: UInt64) throws(CBORError) -> CBOR {
        guard case .tagged(let tag, let content) = self, tag == number else { throw mismatch("tag \(number)") }
        return content
    }

    /// The value of `key` in a map (compared in the data model); `nil` when this is not a map or the key is absent.
    public subscript(key: CBOR) -> CBOR? {
        guard case .map(let pairs) = definite else { return nil }
        return pairs.first { $0.key.isSameDataModelValue(as: key) }?.value
    }

    public subscript(key: String) -> CBOR? { self[.text(key)] }

    public subscript(key: Int) -> CBOR? { self[.int(key)] }

    /// The value of `key` in a map, or ``CBORError/missingKey(_:offset:)``.
    public func value(forKey key: CBOR) throws(CBORError) -> CBOR {
        _ = try map()
        guard let found = self[key] else { throw .missingKey(key.diagnosticNotation, offset: nil) }
        return found
    }

    public func value(forKey key: String) throws(CBORError) -> CBOR { try value(forKey: .text(key)) }

    public func value(forKey key: Int) throws(CBORError) -> CBOR { try value(forKey: .int(key)) }

    /// Tag 24: the item embedded in this byte string or tag 24 (RFC 8949 §3.4.5.1).
    public func embedded(options: DecodingOptions = .default) throws(CBORError) -> CBOR.Decoded {
        var payload = self
        if case .tagged(let tag, let content) = self {
            guard tag == Tag.encodedCBOR else { throw mismatch("tag 24 or byte string") }
            payload = content
        }
        return try CBOR.decode(try payload.bytes(), options: options)
    }
}

extension CBOR: ExpressibleByIntegerLiteral, ExpressibleByStringLiteral, ExpressibleByBooleanLiteral,
    ExpressibleByFloatLiteral, ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral, ExpressibleByNilLiteral {
    public init(integerLiteral value: Int) { self = .int(value) }
    public init(stringLiteral value: String) { self = .text(value) }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    /// A float literal is encoded in the shortest width that keeps it (RFC 8949 §4.1).
    public init(floatLiteral value: Double) { self = .float(value) }
    public init(arrayLiteral elements: CBOR...) { self = .array(elements) }
    /// A dictionary literal keeps the order written.
    public init(dictionaryLiteral elements: (CBOR, CBOR)...) { self = .map(elements.map { Pair($0.0, $0.1) }) }
    public init(nilLiteral: ()) { self = .null }
}
