/// The `type` of an SCA wallet feed event (docs/server-api.md "SCA wallet (back end)"), the tenant writes and the device reads.
/// String-backed rather than an enum, so that an event a newer tenant sends still decodes on an older device (which
/// skips it).
public struct SCAEventType: WireValueSet {
    /// The values this version names (openapi.json lists the same): switch over `known` to decide on one.
    public enum Known: String, CaseIterable, Sendable {
        case loaded, locked, unlocked, credentialsReset, countersUpdated, settingsUpdated, productsUpdated, deviceEligibilityLost, appSunsetScheduled, deleted
    }

    public let rawValue: String

    public init(rawValue: String) { self.rawValue = rawValue }

    /// The wallet was activated by a device.
    public static let loaded = Self(.loaded)
    /// `{reason}`: locked by the back end, by the last PIN attempt (`PIN_ATTEMPTS`), or by a proof whose counter was not
    /// above the last accepted one (`FRAUD_SUSPICION`: a clone).
    public static let locked = Self(.locked)
    public static let unlocked = Self(.unlocked)
    /// The back end reset the customer's credentials.
    public static let credentialsReset = Self(.credentialsReset)
    /// `{pinAttemptsLeft}`.
    public static let countersUpdated = Self(.countersUpdated)
    /// `{accessProtection?, maxPinAttempts?}`.
    public static let settingsUpdated = Self(.settingsUpdated)
    /// `{…the bank's data}`.
    public static let productsUpdated = Self(.productsUpdated)
    /// `{reason}`: a new eligibility rule refuses this device.
    public static let deviceEligibilityLost = Self(.deviceEligibilityLost)
    /// `{minimumVersion, sunsetAt}`.
    public static let appSunsetScheduled = Self(.appSunsetScheduled)
    public static let deleted = Self(.deleted)
}
