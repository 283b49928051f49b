/// A status value (draft-ietf-oauth-status-list §7.1): 0 VALID, 1 INVALID, 2 SUSPENDED; 3 and 0x0B–0x0F are
/// application-specific, the rest reserved. Values this library does not name are kept as `.other`.
public enum TokenStatus: Sendable, Hashable, CustomStringConvertible {
    case valid
    case invalid
    case suspended
    case other(UInt8)

    public init(rawValue: UInt8) {
        switch rawValue {
        case 0: self = .valid
        case 1: self = .invalid
        case 2: self = .suspended
        default: self = .other(rawValue)
        }
    }

    public var rawValue: UInt8 {
        switch self {
        case .valid: 0
        case .invalid: 1
        case .suspended: 2
        case .other(let value): value
        }
    }

    public var description: String {
        switch self {
        case .valid: "valid"
        case .invalid: "invalid"
        case .suspended: "suspended"
        case .other(let value): "status \(value)"
        }
    }
}
