/// Why an SCA wallet is locked (docs/server-api.md "SCA wallet (back end)"): one of the reasons the bank's back end gives
/// (`PUT …/lock`), or `PIN_ATTEMPTS` when the last wrong PIN locked it. The wallet's `lockReason`, the `locked`
/// event's `reason` and the device's wallet status carry it.
public struct SCALockReason: WireValueSet {
    /// The values this version names (openapi.json lists the same): switch over `known` to decide on one.
    public enum Known: String, CaseIterable, Sendable {
        case lostDevice = "LOST_DEVICE", stolenDevice = "STOLEN_DEVICE", fraudSuspicion = "FRAUD_SUSPICION", other = "OTHER", pinAttempts = "PIN_ATTEMPTS"
    }

    public let rawValue: String

    public init(rawValue: String) { self.rawValue = rawValue }

    public static let lostDevice = Self(.lostDevice)
    public static let stolenDevice = Self(.stolenDevice)
    public static let fraudSuspicion = Self(.fraudSuspicion)
    public static let other = Self(.other)
    /// The tenant's own: the last PIN attempt failed.
    public static let pinAttempts = Self(.pinAttempts)

    /// The reasons a back end may give when it locks a wallet (openapi.json, `SCAWalletLockRequest.reason`).
    public static let backEnd: [Self] = [.lostDevice, .stolenDevice, .fraudSuspicion, .other]
}
