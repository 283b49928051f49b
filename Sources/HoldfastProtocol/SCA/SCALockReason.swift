/// Why an SCA wallet is locked (docs/server-api.md "SCA wallet (back end)"): one of the reasons the bank's back end gives
/// (`PUT …/lock`), or `PIN_ATTEMPTS` when the last wrong PIN locked it. The wallet's `lockReason`, the `locked`
/// event's `reason` and the device's wallet status carry it.
public struct SCALockReason: WireValueSet {
    public let rawValue: String

    public init(rawValue: String) { self.rawValue = rawValue }

    public static let lostDevice: Self = "LOST_DEVICE"
    public static let stolenDevice: Self = "STOLEN_DEVICE"
    public static let fraudSuspicion: Self = "FRAUD_SUSPICION"
    public static let other: Self = "OTHER"
    /// The tenant's own: the last PIN attempt failed.
    public static let pinAttempts: Self = "PIN_ATTEMPTS"

    /// The reasons a back end may give when it locks a wallet (openapi.json, `SCAWalletLockRequest.reason`).
    public static let backEnd: [Self] = [.lostDevice, .stolenDevice, .fraudSuspicion, .other]

    /// Every reason a locked wallet may carry (openapi.json, `SCAWallet.lockReason`).
    public static let all: [Self] = backEnd + [.pinAttempts]
}
