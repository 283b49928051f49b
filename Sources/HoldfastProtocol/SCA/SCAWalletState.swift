/// The state of an SCA wallet on the tenant (docs/server-api.md "SCA wallet (back end)"): `pending` (made, not activated yet), `active`,
/// `locked` (by the back end or by the last wrong PIN), `deleted`. String-backed so that a state a newer tenant
/// writes still decodes.
public struct SCAWalletState: WireValueSet {
    /// The values this version names (openapi.json lists the same): switch over `known` to decide on one.
    public enum Known: String, CaseIterable, Sendable {
        case pending, active, locked, deleted
    }

    public let rawValue: String

    public init(rawValue: String) { self.rawValue = rawValue }

    public static let pending = Self(.pending)
    public static let active = Self(.active)
    public static let locked = Self(.locked)
    public static let deleted = Self(.deleted)
}
