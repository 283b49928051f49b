/// The state of an SCA wallet on the tenant (docs/server-api.md "SCA wallet (back end)"): `pending` (made, not activated yet), `active`,
/// `locked` (by the back end or by the last wrong PIN), `deleted`. String-backed so that a state a newer tenant
/// writes still decodes.
public struct SCAWalletState: WireValueSet {
    public let rawValue: String

    public init(rawValue: String) { self.rawValue = rawValue }

    public static let pending: Self = "pending"
    public static let active: Self = "active"
    public static let locked: Self = "locked"
    public static let deleted: Self = "deleted"

    /// Every state this version writes and reads (openapi.json lists the same for `SCAWallet.state`).
    public static let all: [Self] = [.pending, .active, .locked, .deleted]
}
