/// What the tenant found a PIN the customer entered to be (`SCAPinAttemptResult.outcome`, docs/server-api.md "SCA wallet (back end)"). String-backed so that the tenant refuses an unknown outcome with a field error rather than a decoding
/// error.
public struct SCAPinAttemptOutcome: WireValueSet {
    public let rawValue: String

    public init(rawValue: String) { self.rawValue = rawValue }

    public static let success: Self = "success"
    public static let failure: Self = "failure"

    /// Every outcome this version writes and reads (openapi.json lists the same).
    public static let all: [Self] = [.success, .failure]
}
