import Foundation

/// One value as SQLite stores it: one of its five storage classes (sqlite.org/datatype3.html §2).
public enum SQLiteValue: Sendable, Hashable {
    case integer(Int64)
    case float(Double)
    case text(String)
    case blob([UInt8])
    case null
}

/// Why a value cannot go into, or come out of, a column.
public struct SQLiteValueError: Error, Sendable, CustomStringConvertible {
    public let description: String
}

extension SQLiteValue {
    /// The value a bound Swift value is stored as: integers (and `Bool`, as 0 or 1) as INTEGER, floating point as
    /// REAL, strings as TEXT, `[UInt8]` and `Data` as BLOB, `nil` as NULL, `UUID` as its lowercase text; any other
    /// `Encodable` as its JSON text.
    public init(encoding value: any Encodable) throws {
        switch value {
        case let value as String: self = .text(value)
        case let value as Int64: self = .integer(value)
        case let value as Int: self = .integer(Int64(value))
        case let value as [UInt8]: self = .blob(value)
        case let value as Data: self = .blob(Array(value))
        case let value as UUID: self = .text(value.uuidString.lowercased())
        default:
            let encoder = SingleValueCapture()
            do {
                try value.encode(to: encoder)
            } catch is SingleValueCapture.NeedsJSON {
                let json = try JSONEncoder().encode(value)
                self = .text(String(decoding: json, as: UTF8.self))
                return
            }
            self = encoder.value ?? .null
        }
    }

    /// The stored value as `type`, by the same rules backwards; JSON text decodes into any other `Decodable`.
    public func decode<D: Decodable>(_ type: D.Type) throws -> D {
        switch self {
        case .text(let text) where D.self == String.self: return text as! D
        case .integer(let integer) where D.self == Int64.self: return integer as! D
        case .integer(let integer) where D.self == Int.self: return Int(integer) as! D
        case .blob(let bytes) where D.self == [UInt8].self: return bytes as! D
        case .blob(let bytes) where D.self == Data.self: return Data(bytes) as! D
        default: return try SingleValueReader(value: self).decodeValue(D.self)
        }
    }
}

/// Captures what a value encodes as one single value; a keyed or unkeyed container means the value is JSON.
private final class SingleValueCapture: Encoder, SingleValueEncodingContainer {
    struct NeedsJSON: Error {}

    var value: SQLiteValue?
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        KeyedEncodingContainer(FailingKeyedContainer<Key>())
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer { FailingUnkeyedContainer() }
    func singleValueContainer() -> any SingleValueEncodingContainer { self }

    func encodeNil() throws { value = .null }
    func encode(_ value: Bool) throws { self.value = .integer(value ? 1 : 0) }
    func encode(_ value: String) throws { self.value = .text(value) }
    func encode(_ value: Double) throws { self.value = .float(value) }
    func encode(_ value: Float) throws { self.value = .float(Double(value)) }
    func encode(_ value: Int) throws { self.value = .integer(Int64(value)) }
    func encode(_ value: Int8) throws { self.value = .integer(Int64(value)) }
    func encode(_ value: Int16) throws { self.value = .integer(Int64(value)) }
    func encode(_ value: Int32) throws { self.value = .integer(Int64(value)) }
    func encode(_ value: Int64) throws { self.value = .integer(value) }
    func encode(_ value: UInt8) throws { self.value = .integer(Int64(value)) }
    func encode(_ value: UInt16) throws { self.value = .integer(Int64(value)) }
    func encode(_ value: UInt32) throws { self.value = .integer(Int64(value)) }

    func encode(_ value: UInt) throws {
        guard let integer = Int64(exactly: value) else { throw SQLiteValueError(description: "\(value) does not fit an INTEGER") }
        self.value = .integer(integer)
    }

    func encode(_ value: UInt64) throws {
        guard let integer = Int64(exactly: value) else { throw SQLiteValueError(description: "\(value) does not fit an INTEGER") }
        self.value = .integer(integer)
    }

    func encode<T: Encodable>(_ value: T) throws {
        self.value = try SQLiteValue(encoding: value)
    }

    /// Keyed and unkeyed containers end the single-value capture: the value is written as JSON instead.
    private struct FailingKeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
        var codingPath: [any CodingKey] { [] }
        mutating func encodeNil(forKey key: Key) throws { throw NeedsJSON() }
        mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws { throw NeedsJSON() }
        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type,
                                                            forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
            KeyedEncodingContainer(FailingKeyedContainer<NestedKey>())
        }
        mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer { FailingUnkeyedContainer() }
        mutating func superEncoder() -> any Encoder { SingleValueCapture() }
        mutating func superEncoder(forKey key: Key) -> any Encoder { SingleValueCapture() }
    }

    private struct FailingUnkeyedContainer: UnkeyedEncodingContainer {
        var codingPath: [any CodingKey] { [] }
        var count: Int { 0 }
        mutating func encodeNil() throws { throw NeedsJSON() }
        mutating func encode<T: Encodable>(_ value: T) throws { throw NeedsJSON() }
        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
            KeyedEncodingContainer(FailingKeyedContainer<NestedKey>())
        }
        mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer { FailingUnkeyedContainer() }
        mutating func superEncoder() -> any Encoder { SingleValueCapture() }
    }
}

/// Reads one stored value as a single Swift value; a type that asks for a keyed or unkeyed container reads the
/// value's JSON text instead.
private struct SingleValueReader: Decoder, SingleValueDecodingContainer {
    let value: SQLiteValue
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    struct NeedsJSON: Error {}

    func decodeValue<T: Decodable>(_ type: T.Type) throws -> T {
        do {
            return try T(from: self)
        } catch is NeedsJSON {
            switch value {
            case .text(let text): return try JSONDecoder().decode(T.self, from: Data(text.utf8))
            case .blob(let bytes): return try JSONDecoder().decode(T.self, from: Data(bytes))
            default: throw mismatch(T.self)
            }
        }
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> { throw NeedsJSON() }
    func unkeyedContainer() throws -> any UnkeyedDecodingContainer { throw NeedsJSON() }
    func singleValueContainer() throws -> any SingleValueDecodingContainer { self }

    func decodeNil() -> Bool { value == .null }

    func decode(_ type: Bool.Type) throws -> Bool {
        guard case .integer(let integer) = value, integer == 0 || integer == 1 else { throw mismatch(type) }
        return integer == 1
    }

    func decode(_ type: String.Type) throws -> String {
        guard case .text(let text) = value else { throw mismatch(type) }
        return text
    }

    func decode(_ type: Double.Type) throws -> Double {
        switch value {
        case .float(let double): return double
        case .integer(let integer): return Double(integer)
        default: throw mismatch(type)
        }
    }

    func decode(_ type: Float.Type) throws -> Float { Float(try decode(Double.self)) }
    func decode(_ type: Int.Type) throws -> Int { try integer(type) }
    func decode(_ type: Int8.Type) throws -> Int8 { try integer(type) }
    func decode(_ type: Int16.Type) throws -> Int16 { try integer(type) }
    func decode(_ type: Int32.Type) throws -> Int32 { try integer(type) }
    func decode(_ type: Int64.Type) throws -> Int64 { try integer(type) }
    func decode(_ type: UInt.Type) throws -> UInt { try integer(type) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try integer(type) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try integer(type) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try integer(type) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try integer(type) }

    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        try value.decode(type)
    }

    private func integer<I: FixedWidthInteger>(_ type: I.Type) throws -> I {
        guard case .integer(let integer) = value, let exact = I(exactly: integer) else { throw mismatch(type) }
        return exact
    }

    private func mismatch(_ type: Any.Type) -> DecodingError {
        DecodingError.typeMismatch(type, .init(codingPath: [], debugDescription: "the stored value is \(value)"))
    }
}
