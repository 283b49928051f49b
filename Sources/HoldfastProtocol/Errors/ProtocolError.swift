/// A request member that does not follow the wire format (docs/server-api.md "Registration wire format"). Servers answer it with `code` (400).
public enum ProtocolError: Error, Sendable, Hashable, CustomStringConvertible {
    case invalidPublicKey(String)
    case invalidAssertion(String)
    case invalidAttestation(String)

    public var code: HoldfastErrorCode {
        switch self {
        case .invalidPublicKey: .validationFailed
        case .invalidAssertion, .invalidAttestation: .invalidAttestation
        }
    }

    public var description: String {
        switch self {
        case .invalidPublicKey(let why), .invalidAssertion(let why), .invalidAttestation(let why): "\(code): \(why)"
        }
    }
}
