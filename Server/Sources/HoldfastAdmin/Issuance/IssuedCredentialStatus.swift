import HoldfastProtocol

/// An issued credential's status (`IssuedCredential.status`, `CredentialStatusChange.status`; docs/server-api.md "Credentials"):
/// `valid`, `suspended`, or `revoked`, which is final. String-backed so that a status a newer tenant writes still
/// decodes (the tenant refuses one it does not know with a field error).
public struct IssuedCredentialStatus: WireValueSet {
    /// The values this version names (openapi.json lists the same): switch over `known` to decide on one.
    public enum Known: String, CaseIterable, Sendable {
        case valid, suspended, revoked
    }

    public let rawValue: String

    public init(rawValue: String) { self.rawValue = rawValue }

    public static let valid = Self(.valid)
    public static let suspended = Self(.suspended)
    /// Final: the tenant refuses any change after it (`CONFLICT`).
    public static let revoked = Self(.revoked)
}
