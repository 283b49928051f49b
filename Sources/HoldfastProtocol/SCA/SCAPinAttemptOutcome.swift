/// What the tenant found a PIN the customer entered to be (`SCAPinAttemptResult.outcome`, docs/server-api.md "SCA wallet (back end)"). String-backed so that the tenant refuses an unknown outcome with a field error rather than a decoding
/// error.
public struct SCAPinAttemptOutcome: WireValueSet {
    /// The values this version names (openapi.json lists the same): switch over `known` to decide on one.
    public enum Known: String, CaseIterable, Sendable {
        case success, failure
    }

    public let rawValue: String

    public init(rawValue: String) { self.rawValue = rawValue }

    public static let success = Self(.success)
    public static let failure = Self(.failure)
}
