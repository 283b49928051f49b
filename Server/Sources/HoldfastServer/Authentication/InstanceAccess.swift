/// What an `.instance` route demands of the caller, beyond a DPoP proof of the instance key.
public struct InstanceAccess: Sendable, Hashable {
    public enum Token: Sendable, Hashable {
        /// A current license token is required.
        case current
        /// Renewal: an expired token is accepted, and an instance never issued a license (pending, or just approved)
        /// may send the proof alone.
        case renewal
    }

    public var token: Token
    /// Whether the route evaluates `X-Holdfast-Dev-Mode` (`DevModeGuard`): registration-like calls that check
    /// platform evidence do; the others ignore the header.
    public var evaluatesDevelopmentMode: Bool

    public init(token: Token, evaluatesDevelopmentMode: Bool) {
        self.token = token
        self.evaluatesDevelopmentMode = evaluatesDevelopmentMode
    }

    /// License renewal.
    public static let renewal = InstanceAccess(token: .renewal, evaluatesDevelopmentMode: true)
    /// A call with fresh platform evidence (key rotation).
    public static let currentWithEvidence = InstanceAccess(token: .current, evaluatesDevelopmentMode: true)
    /// Any other instance call.
    public static let current = InstanceAccess(token: .current, evaluatesDevelopmentMode: false)
}
