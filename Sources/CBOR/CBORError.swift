/// Everything that can go wrong reading or converting CBOR, each case with a stable ``code`` and, where the bytes
/// are known, the byte ``offset`` in the input where the fault is.
public enum CBORError: Error, Sendable, Hashable {
    /// The input ends inside an item (RFC 8949 §3: not well-formed).
    case unexpectedEnd(offset: Int)
    /// A length or count claims more than the bytes that remain; nothing is allocated for it.
    case lengthExceedsInput(offset: Int, declared: UInt64, remaining: Int)
    /// Additional information 28, 29 or 30 (RFC 8949 §3: reserved).
    case reservedAdditionalInfo(offset: Int, value: UInt8)
    /// Indefinite length (additional information 31) on a major type that has none (0, 1, 6).
    case indefiniteLengthNotAllowed(offset: Int, majorType: UInt8)
    /// A "break" (0xff) outside an indefinite-length item.
    case unexpectedBreak(offset: Int)
    /// A chunk of an indefinite-length string that is not a definite-length string of the same type (RFC 8949 §3.2.3).
    case invalidChunk(offset: Int, majorType: UInt8)
    /// A text string that is not valid UTF-8 (RFC 8949 §3.1, major type 3).
    case invalidUTF8(offset: Int)
    /// A two-byte simple value below 32 (RFC 8949 §3.3: not well-formed).
    case invalidSimpleValue(offset: Int, value: UInt8)
    /// The same key twice in one map (RFC 8949 §5.6: not valid).
    case duplicateMapKey(offset: Int)
    /// Bytes after the item when a single item was expected.
    case trailingBytes(offset: Int)
    /// Arrays, maps and tags nested deeper than the limit.
    case depthLimitExceeded(offset: Int, limit: Int)
    /// More data items than the limit.
    case itemLimitExceeded(offset: Int, limit: Int)
    /// The input is longer than the limit.
    case inputTooLarge(length: Int, limit: Int)
    /// A typed access found another kind of item.
    case typeMismatch(expected: String, found: String, offset: Int?)
    /// A map has no entry for a required key.
    case missingKey(String, offset: Int?)
    /// An array has fewer elements than required.
    case indexOutOfRange(index: Int, count: Int, offset: Int?)
    /// A number that does not fit the requested Swift type.
    case integerOutOfRange(String, offset: Int?)
    /// A value that is well-formed CBOR but not what the application allows (Codable, tag contents).
    case invalidValue(String, offset: Int?)

    /// A stable, machine-readable code for the case.
    public var code: String {
        switch self {
        case .unexpectedEnd: "CBOR_UNEXPECTED_END"
        case .lengthExceedsInput: "CBOR_LENGTH_EXCEEDS_INPUT"
        case .reservedAdditionalInfo: "CBOR_RESERVED_ADDITIONAL_INFO"
        case .indefiniteLengthNotAllowed: "CBOR_INDEFINITE_LENGTH_NOT_ALLOWED"
        case .unexpectedBreak: "CBOR_UNEXPECTED_BREAK"
        case .invalidChunk: "CBOR_INVALID_CHUNK"
        case .invalidUTF8: "CBOR_INVALID_UTF8"
        case .invalidSimpleValue: "CBOR_INVALID_SIMPLE_VALUE"
        case .duplicateMapKey: "CBOR_DUPLICATE_MAP_KEY"
        case .trailingBytes: "CBOR_TRAILING_BYTES"
        case .depthLimitExceeded: "CBOR_DEPTH_LIMIT_EXCEEDED"
        case .itemLimitExceeded: "CBOR_ITEM_LIMIT_EXCEEDED"
        case .inputTooLarge: "CBOR_INPUT_TOO_LARGE"
        case .typeMismatch: "CBOR_TYPE_MISMATCH"
        case .missingKey: "CBOR_MISSING_KEY"
        case .indexOutOfRange: "CBOR_INDEX_OUT_OF_RANGE"
        case .integerOutOfRange: "CBOR_INTEGER_OUT_OF_RANGE"
        case .invalidValue: "CBOR_INVALID_VALUE"
        }
    }

    /// The byte offset in the input where the fault is, when known.
    public var offset: Int? {
        switch self {
        case .unexpectedEnd(let offset), .lengthExceedsInput(let offset, _, _), .reservedAdditionalInfo(let offset, _),
             .indefiniteLengthNotAllowed(let offset, _), .unexpectedBreak(let offset), .invalidChunk(let offset, _),
             .invalidUTF8(let offset), .invalidSimpleValue(let offset, _), .duplicateMapKey(let offset),
             .trailingBytes(let offset), .depthLimitExceeded(let offset, _), .itemLimitExceeded(let offset, _):
            offset
        case .inputTooLarge: 0
        case .typeMismatch(_, _, let offset), .missingKey(_, let offset), .indexOutOfRange(_, _, let offset),
             .integerOutOfRange(_, let offset), .invalidValue(_, let offset):
            offset
        }
    }
}

extension CBORError: CustomStringConvertible {
    public var description: String {
        let at = offset.map { " at byte \($0)" } ?? ""
        let detail: String
        switch self {
        case .unexpectedEnd: detail = "input ends inside an item"
        case let .lengthExceedsInput(_, declared, remaining):
            detail = "declared length \(declared) exceeds the \(remaining) bytes that remain"
        case let .reservedAdditionalInfo(_, value): detail = "reserved additional information \(value)"
        case let .indefiniteLengthNotAllowed(_, major): detail = "indefinite length on major type \(major)"
        case .unexpectedBreak: detail = "break outside an indefinite-length item"
        case let .invalidChunk(_, major): detail = "chunk of an indefinite-length string of major type \(major) is not a definite string of that type"
        case .invalidUTF8: detail = "text string is not valid UTF-8"
        case let .invalidSimpleValue(_, value): detail = "two-byte simple value \(value) below 32"
        case .duplicateMapKey: detail = "duplicate map key"
        case .trailingBytes: detail = "bytes after the end of the item"
        case let .depthLimitExceeded(_, limit): detail = "nesting deeper than \(limit)"
        case let .itemLimitExceeded(_, limit): detail = "more than \(limit) data items"
        case let .inputTooLarge(length, limit): detail = "input of \(length) bytes exceeds the limit of \(limit)"
        case let .typeMismatch(expected, found, _): detail = "expected \(expected), found \(found)"
        case let .missingKey(key, _): detail = "missing map key \(key)"
        case let .indexOutOfRange(index, count, _): detail = "index \(index) out of range for \(count) elements"
        case let .integerOutOfRange(type, _): detail = "integer does not fit \(type)"
        case let .invalidValue(reason, _): detail = reason
        }
        return "\(code): \(detail)\(at)"
    }
}
