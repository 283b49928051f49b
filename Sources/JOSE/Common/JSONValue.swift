import Foundation

/// A JSON value, for JOSE headers and JWT claims whose members this module does not model (RFC 8259).
///
/// Numbers keep integers exact (`Int64`) and fall back to `Double` otherwise, so NumericDate values round-trip.
public enum JSONValue: Codable, Sendable, Hashable {
    case null
    case bool(Bool)
    case integer(Int64)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Int64.self) {
            self = .integer(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([JSONValue].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: JSONValue].self))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let value): try container.encode(value)
        case .integer(let value): try container.encode(value)
        case .number(let value): try container.encode(value)
        case .string(let value): try container.encode(value)
        case .array(let value): try container.encode(value)
        case .object(let value): try container.encode(value)
        }
    }

    public var stringValue: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    /// The value of a JSON number, integer or not.
    public var doubleValue: Double? {
        switch self {
        case .integer(let value): Double(value)
        case .number(let value): value
        default: nil
        }
    }

    public var arrayValue: [JSONValue]? {
        if case .array(let value) = self { return value }
        return nil
    }

    public var objectValue: [String: JSONValue]? {
        if case .object(let value) = self { return value }
        return nil
    }

    /// Decodes a JSON object from bytes; throws `JOSEError.malformedJSON` naming `part` when it is not one.
    static func decodeObject(_ bytes: [UInt8], part: String) throws -> [String: JSONValue] {
        let value: JSONValue
        do {
            value = try JSONValueParser.parse(bytes)
        } catch {
            throw JOSEError.malformedJSON("\(part) is not JSON: \(error)")
        }
        guard case .object(let members) = value else { throw JOSEError.malformedJSON("\(part) is not a JSON object") }
        return members
    }

    /// Parses JSON text (RFC 8259, strict: see `JSONValueParser`).
    public init(json bytes: [UInt8]) throws {
        do {
            self = try JSONValueParser.parse(bytes)
        } catch {
            throw JOSEError.malformedJSON("not JSON: \(error)")
        }
    }

    /// Compact JSON text with object members sorted by name, so that what we sign is deterministic.
    public func jsonBytes() throws -> [UInt8] {
        do {
            return try JSONValueWriter.write(self)
        } catch {
            throw JOSEError.malformedJSON("cannot encode a non-finite number as JSON")
        }
    }

    /// Encodes a JSON object compactly with sorted keys, so that what we sign is deterministic.
    static func encodeObject(_ object: [String: JSONValue]) throws -> [UInt8] {
        try JSONValue.object(object).jsonBytes()
    }
}
