import struct Foundation.Data
import struct Foundation.Date

/// Encodes `Encodable` values as CBOR (RFC 8949).
///
/// Structs become maps with text keys (or integer keys, with ``usesIntegerKeys``, for `CodingKey`s that have an
/// `intValue`), arrays become arrays, `Data` and `[UInt8]` become byte strings, `Date` becomes tag 1 (epoch seconds),
/// `Double`/`Float` use the shortest width that keeps the value, and a ``CBOR`` value is written as it is.
public struct CBOREncoder: Sendable {
    /// RFC 8949 §4.2.1 core deterministic encoding (keys sorted by their encoded bytes).
    public var deterministic: Bool
    /// Use `CodingKey.intValue` as an integer map key when a key has one (COSE and ISO 18013-5 style labels).
    public var usesIntegerKeys: Bool

    public init(deterministic: Bool = false, usesIntegerKeys: Bool = false) {
        self.deterministic = deterministic
        self.usesIntegerKeys = usesIntegerKeys
    }

    /// The CBOR encoding of `value`.
    public func encode<T: Encodable>(_ value: T) throws -> [UInt8] {
        try encodeToValue(value).encoded(deterministic: deterministic)
    }

    /// `value` as a ``CBOR`` value.
    public func encodeToValue<T: Encodable>(_ value: T) throws -> CBOR {
        let root = EncodingNode()
        try root.store(value, codingPath: [], usesIntegerKeys: usesIntegerKeys)
        return root.value
    }
}

/// A node of the tree built while encoding; containers may be asked for more than once and write into the same node.
final class EncodingNode {
    enum Content {
        case empty
        case value(CBOR)
        case array([EncodingNode])
        case map([(CBOR, EncodingNode)])
    }

    var content: Content = .empty

    var value: CBOR {
        switch content {
        case .empty: .map([])
        case .value(let value): value
        case .array(let nodes): .array(nodes.map(\.value))
        case .map(let pairs): .map(pairs.map { CBOR.Pair($0.0, $0.1.value) })
        }
    }

    func store<T: Encodable>(_ value: T, codingPath: [any CodingKey], usesIntegerKeys: Bool) throws {
        switch value {
        case let cbor as CBOR: content = .value(cbor)
        case let decoded as CBOR.Decoded: content = .value(decoded.value)
        case let bytes as [UInt8]: content = .value(.bytes(bytes))
        case let data as Data: content = .value(.bytes(Array(data)))
        case let date as Date:
            let seconds = date.timeIntervalSince1970
            let whole = seconds.rounded(.towardZero)
            if whole == seconds, let integer = Int64(exactly: whole) {
                content = .value(.tagged(CBOR.Tag.epochDateTime, .int(integer)))
            } else {
                content = .value(.tagged(CBOR.Tag.epochDateTime, .float(seconds)))
            }
        default:
            try value.encode(to: CBOREncoderImplementation(node: self, codingPath: codingPath,
                                                           usesIntegerKeys: usesIntegerKeys))
        }
    }
}

struct CBOREncoderImplementation: Encoder {
    let node: EncodingNode
    let codingPath: [any CodingKey]
    let usesIntegerKeys: Bool
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        if case .map = node.content {} else { node.content = .map([]) }
        return KeyedEncodingContainer(KeyedContainer<Key>(encoder: self))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        if case .array = node.content {} else { node.content = .array([]) }
        return UnkeyedContainer(encoder: self)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer { SingleValueContainer(encoder: self) }

    func key(_ key: some CodingKey) -> CBOR {
        if usesIntegerKeys, let integer = key.intValue { return .int(integer) }
        return .text(key.stringValue)
    }

    func child(for key: any CodingKey) -> (EncodingNode, [any CodingKey]) {
        let child = EncodingNode()
        if case .map(var pairs) = node.content {
            node.content = .empty
            pairs.append((self.key(key), child))
            node.content = .map(pairs)
        }
        return (child, codingPath + [key])
    }

    func appendChild() -> (EncodingNode, [any CodingKey]) {
        let child = EncodingNode()
        var count = 0
        if case .array(var nodes) = node.content {
            node.content = .empty
            nodes.append(child)
            count = nodes.count
            node.content = .array(nodes)
        }
        return (child, codingPath + [IndexKey(intValue: count - 1)])
    }

    struct KeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
        let encoder: CBOREncoderImplementation
        var codingPath: [any CodingKey] { encoder.codingPath }

        func encodeNil(forKey key: Key) throws { encoder.child(for: key).0.content = .value(.null) }

        func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
            let (child, path) = encoder.child(for: key)
            try child.store(value, codingPath: path, usesIntegerKeys: encoder.usesIntegerKeys)
        }

        func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type,
                                                   forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
            let (child, path) = encoder.child(for: key)
            return CBOREncoderImplementation(node: child, codingPath: path, usesIntegerKeys: encoder.usesIntegerKeys)
                .container(keyedBy: keyType)
        }

        func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
            let (child, path) = encoder.child(for: key)
            return CBOREncoderImplementation(node: child, codingPath: path, usesIntegerKeys: encoder.usesIntegerKeys)
                .unkeyedContainer()
        }

        func superEncoder() -> any Encoder {
            let (child, path) = encoder.child(for: NamedKey(stringValue: "super"))
            return CBOREncoderImplementation(node: child, codingPath: path, usesIntegerKeys: encoder.usesIntegerKeys)
        }

        func superEncoder(forKey key: Key) -> any Encoder {
            let (child, path) = encoder.child(for: key)
            return CBOREncoderImplementation(node: child, codingPath: path, usesIntegerKeys: encoder.usesIntegerKeys)
        }
    }

    struct UnkeyedContainer: UnkeyedEncodingContainer {
        let encoder: CBOREncoderImplementation
        var codingPath: [any CodingKey] { encoder.codingPath }
        var count: Int {
            if case .array(let nodes) = encoder.node.content { return nodes.count }
            return 0
        }

        func encodeNil() throws { encoder.appendChild().0.content = .value(.null) }

        func encode<T: Encodable>(_ value: T) throws {
            let (child, path) = encoder.appendChild()
            try child.store(value, codingPath: path, usesIntegerKeys: encoder.usesIntegerKeys)
        }

        func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
            let (child, path) = encoder.appendChild()
            return CBOREncoderImplementation(node: child, codingPath: path, usesIntegerKeys: encoder.usesIntegerKeys)
                .container(keyedBy: keyType)
        }

        func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
            let (child, path) = encoder.appendChild()
            return CBOREncoderImplementation(node: child, codingPath: path, usesIntegerKeys: encoder.usesIntegerKeys)
                .unkeyedContainer()
        }

        func superEncoder() -> any Encoder {
            let (child, path) = encoder.appendChild()
            return CBOREncoderImplementation(node: child, codingPath: path, usesIntegerKeys: encoder.usesIntegerKeys)
        }
    }

    struct SingleValueContainer: SingleValueEncodingContainer {
        let encoder: CBOREncoderImplementation
        var codingPath: [any CodingKey] { encoder.codingPath }

        private func set(_ value: CBOR) { encoder.node.content = .value(value) }

        func encodeNil() throws { set(.null) }
        func encode(_ value: Bool) throws { set(.bool(value)) }
        func encode(_ value: String) throws { set(.text(value)) }
        func encode(_ value: Double) throws { set(.float(value)) }
        func encode(_ value: Float) throws { set(.float(Double(value))) }
        func encode(_ value: Int) throws { set(.int(value)) }
        func encode(_ value: Int8) throws { set(.int(Int(value))) }
        func encode(_ value: Int16) throws { set(.int(Int(value))) }
        func encode(_ value: Int32) throws { set(.int(Int(value))) }
        func encode(_ value: Int64) throws { set(.int(value)) }
        func encode(_ value: UInt) throws { set(.unsigned(UInt64(value))) }
        func encode(_ value: UInt8) throws { set(.unsigned(UInt64(value))) }
        func encode(_ value: UInt16) throws { set(.unsigned(UInt64(value))) }
        func encode(_ value: UInt32) throws { set(.unsigned(UInt64(value))) }
        func encode(_ value: UInt64) throws { set(.unsigned(value)) }
        func encode<T: Encodable>(_ value: T) throws {
            try encoder.node.store(value, codingPath: codingPath, usesIntegerKeys: encoder.usesIntegerKeys)
        }
    }
}

/// A text coding key.
struct NamedKey: CodingKey {
    let stringValue: String
    var intValue: Int? { nil }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { return nil }
}

/// The coding key of an array element.
struct IndexKey: CodingKey {
    let intValue: Int?
    var stringValue: String { intValue.map(String.init) ?? "" }
    init(intValue: Int) { self.intValue = intValue }
    init?(stringValue: String) { self.intValue = Int(stringValue) }
}

/// `CBOR` values embed as themselves in ``CBOREncoder`` output; other encoders get a description of the item.
extension CBOR: Encodable {
    public func encode(to encoder: any Encoder) throws {
        if let implementation = encoder as? CBOREncoderImplementation {
            implementation.node.content = .value(self)
            return
        }
        var container = encoder.singleValueContainer()
        try container.encode(diagnosticNotation)
    }
}
