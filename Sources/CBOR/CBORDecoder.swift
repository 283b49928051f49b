import struct Foundation.Data
import struct Foundation.Date

/// Decodes `Decodable` values from CBOR (RFC 8949), the counterpart of ``CBOREncoder``.
///
/// Errors are ``CBORError``s carrying the byte offset of the item at fault. A property of type ``CBOR/Decoded``
/// receives the item itself, with its raw bytes; one of type ``CBOR`` receives its value.
public struct CBORDecoder: Sendable {
    public var options: CBOR.DecodingOptions
    /// Look keys up by `CodingKey.intValue` when a key has one (see ``CBOREncoder/usesIntegerKeys``).
    public var usesIntegerKeys: Bool

    public init(options: CBOR.DecodingOptions = .default, usesIntegerKeys: Bool = false) {
        self.options = options
        self.usesIntegerKeys = usesIntegerKeys
    }

    public func decode<T: Decodable>(_ type: T.Type, from bytes: [UInt8]) throws -> T {
        try decode(type, from: try CBOR.decode(bytes, options: options))
    }

    public func decode<T: Decodable>(_ type: T.Type, from item: CBOR.Decoded) throws -> T {
        try CBORDecoderImplementation(item: item, codingPath: [], usesIntegerKeys: usesIntegerKeys).decodeValue(type)
    }
}

struct CBORDecoderImplementation: Decoder {
    let item: CBOR.Decoded
    let codingPath: [any CodingKey]
    let usesIntegerKeys: Bool
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func decodeValue<T: Decodable>(_ type: T.Type) throws -> T {
        if type == CBOR.Decoded.self, let result = item as? T { return result }
        if type == CBOR.self, let result = item.value as? T { return result }
        if type == [UInt8].self, let result = Array(try item.bytes()) as? T { return result }
        if type == Data.self, let result = Data(try item.bytes()) as? T { return result }
        if type == Date.self {
            let content = try item.content(ofTag: CBOR.Tag.epochDateTime)
            let seconds: Double
            if content.majorType == 7 { seconds = try content.double() } else { seconds = Double(try content.int64()) }
            if let result = Date(timeIntervalSince1970: seconds) as? T { return result }
        }
        return try T(from: self)
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        KeyedDecodingContainer(KeyedContainer<Key>(decoder: self, pairs: try item.map()))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        UnkeyedContainer(decoder: self, elements: try item.array())
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer { SingleValueContainer(decoder: self) }

    func child(_ item: CBOR.Decoded, _ key: any CodingKey) -> CBORDecoderImplementation {
        CBORDecoderImplementation(item: item, codingPath: codingPath + [key], usesIntegerKeys: usesIntegerKeys)
    }

    struct KeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
        let decoder: CBORDecoderImplementation
        let pairs: [(key: CBOR.Decoded, value: CBOR.Decoded)]
        var codingPath: [any CodingKey] { decoder.codingPath }

        var allKeys: [Key] {
            pairs.compactMap { pair in
                if let text = try? pair.key.text() { return Key(stringValue: text) }
                if let integer = try? pair.key.int() { return Key(intValue: integer) }
                return nil
            }
        }

        private func lookup(_ key: Key) -> CBOR.Decoded? {
            let wanted: CBOR = decoder.usesIntegerKeys && key.intValue != nil
                ? .int(key.intValue ?? 0) : .text(key.stringValue)
            return decoder.item[wanted]
        }

        private func required(_ key: Key) throws -> CBOR.Decoded {
            guard let value = lookup(key) else {
                throw CBORError.missingKey(key.intValue.map(String.init) ?? "\"\(key.stringValue)\"",
                                           offset: decoder.item.offset)
            }
            return value
        }

        func contains(_ key: Key) -> Bool { lookup(key) != nil }

        func decodeNil(forKey key: Key) throws -> Bool { try required(key).isNull }

        func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
            try decoder.child(try required(key), key).decodeValue(type)
        }

        func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
            guard let value = lookup(key), !value.isNull else { return nil }
            return try decoder.child(value, key).decodeValue(type)
        }

        func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type,
                                                   forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
            try decoder.child(try required(key), key).container(keyedBy: type)
        }

        func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
            try decoder.child(try required(key), key).unkeyedContainer()
        }

        func superDecoder() throws -> any Decoder {
            let key = NamedKey(stringValue: "super")
            guard let value = decoder.item["super"] else { throw CBORError.missingKey("\"super\"", offset: decoder.item.offset) }
            return decoder.child(value, key)
        }

        func superDecoder(forKey key: Key) throws -> any Decoder { decoder.child(try required(key), key) }
    }

    struct UnkeyedContainer: UnkeyedDecodingContainer {
        let decoder: CBORDecoderImplementation
        let elements: [CBOR.Decoded]
        var currentIndex = 0
        var codingPath: [any CodingKey] { decoder.codingPath }
        var count: Int? { elements.count }
        var isAtEnd: Bool { currentIndex >= elements.count }

        private mutating func next() throws -> (CBOR.Decoded, IndexKey) {
            guard currentIndex < elements.count else {
                throw CBORError.indexOutOfRange(index: currentIndex, count: elements.count, offset: decoder.item.offset)
            }
            defer { currentIndex += 1 }
            return (elements[currentIndex], IndexKey(intValue: currentIndex))
        }

        mutating func decodeNil() throws -> Bool {
            guard currentIndex < elements.count, elements[currentIndex].isNull else { return false }
            currentIndex += 1
            return true
        }

        mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
            let (element, key) = try next()
            return try decoder.child(element, key).decodeValue(type)
        }

        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
            let (element, key) = try next()
            return try decoder.child(element, key).container(keyedBy: type)
        }

        mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
            let (element, key) = try next()
            return try decoder.child(element, key).unkeyedContainer()
        }

        mutating func superDecoder() throws -> any Decoder {
            let (element, key) = try next()
            return decoder.child(element, key)
        }
    }

    struct SingleValueContainer: SingleValueDecodingContainer {
        let decoder: CBORDecoderImplementation
        var codingPath: [any CodingKey] { decoder.codingPath }
        private var item: CBOR.Decoded { decoder.item }

        func decodeNil() -> Bool { item.isNull }
        func decode(_ type: Bool.Type) throws -> Bool { try item.bool() }
        func decode(_ type: String.Type) throws -> String { try item.text() }
        func decode(_ type: Double.Type) throws -> Double { try item.double() }
        func decode(_ type: Float.Type) throws -> Float { Float(try item.double()) }
        func decode(_ type: Int.Type) throws -> Int { try item.int() }
        func decode(_ type: Int8.Type) throws -> Int8 { try narrow(try item.int64()) }
        func decode(_ type: Int16.Type) throws -> Int16 { try narrow(try item.int64()) }
        func decode(_ type: Int32.Type) throws -> Int32 { try narrow(try item.int64()) }
        func decode(_ type: Int64.Type) throws -> Int64 { try item.int64() }
        func decode(_ type: UInt.Type) throws -> UInt { try narrow(try item.uint64()) }
        func decode(_ type: UInt8.Type) throws -> UInt8 { try narrow(try item.uint64()) }
        func decode(_ type: UInt16.Type) throws -> UInt16 { try narrow(try item.uint64()) }
        func decode(_ type: UInt32.Type) throws -> UInt32 { try narrow(try item.uint64()) }
        func decode(_ type: UInt64.Type) throws -> UInt64 { try item.uint64() }
        func decode<T: Decodable>(_ type: T.Type) throws -> T { try decoder.decodeValue(type) }

        private func narrow<Source: BinaryInteger, Target: FixedWidthInteger>(_ value: Source) throws -> Target {
            guard let result = Target(exactly: value) else {
                throw CBORError.integerOutOfRange("\(Target.self)", offset: item.offset)
            }
            return result
        }
    }
}

/// `CBOR` values decode as themselves with ``CBORDecoder``.
extension CBOR: Decodable {
    public init(from decoder: any Decoder) throws {
        guard let implementation = decoder as? CBORDecoderImplementation else {
            throw CBORError.invalidValue("CBOR values decode only with CBORDecoder", offset: nil)
        }
        self = implementation.item.value
    }
}

/// A decoded item decodes as itself with ``CBORDecoder``, keeping its raw bytes (for fields that are signed or
/// hashed as received).
extension CBOR.Decoded: Decodable {
    public init(from decoder: any Decoder) throws {
        guard let implementation = decoder as? CBORDecoderImplementation else {
            throw CBORError.invalidValue("CBOR.Decoded values decode only with CBORDecoder", offset: nil)
        }
        self = implementation.item
    }
}

extension CBOR.Decoded: Encodable {
    public func encode(to encoder: any Encoder) throws {
        try value.encode(to: encoder)
    }
}
