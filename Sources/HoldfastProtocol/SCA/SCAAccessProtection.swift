/// How an SCA wallet is protected (docs/server-api.md "SCA wallet (back end)"): `pin` (6 to 8 digits), `biometric`, `pinOrBiometric` (either,
/// as the customer chooses at each signature), or `none` (possession of the device alone). The admin API sets it, the activation and the `settingsUpdated` event carry it to the device.
/// String-backed rather than an enum, so that a value a newer tenant sends still decodes on an older device (and the
/// tenant refuses an unknown one with a field error rather than a decoding error).
///
/// The wire spelling is `biometric` (docs/server-api.md, openapi.json); `biometry` is the name of the *pattern* a proof was made
/// with (`SCAPattern`), a different field.
public struct SCAAccessProtection: WireValueSet {
    /// The values this version names (openapi.json lists the same): switch over `known` to decide on one.
    public enum Known: String, CaseIterable, Sendable {
        case pin, biometric, pinOrBiometric, none
    }

    public let rawValue: String

    public init(rawValue: String) { self.rawValue = rawValue }

    /// A PIN of 6 to 8 digits; `maxPinAttempts` wrong ones in a row lock the wallet.
    public static let pin = Self(.pin)
    /// The platform's biometric check.
    public static let biometric = Self(.biometric)
    /// The PIN or the platform's biometric check, whichever the customer uses: each has its own key, so a proof's
    /// `pattern` says which one approved it.
    public static let pinOrBiometric = Self(.pinOrBiometric)
    /// Possession of the device alone. Write `SCAAccessProtection.none` where the value is optional.
    public static let none = Self(.none)

    /// Whether the customer may approve with the PIN (not with a protection this version does not name).
    public var allowsPIN: Bool {
        switch known {
        case .pin?, .pinOrBiometric?: true
        case .biometric?, .none?, nil: false
        }
    }

    /// Whether the customer may approve with biometry (not with a protection this version does not name).
    public var allowsBiometry: Bool {
        switch known {
        case .biometric?, .pinOrBiometric?: true
        case .pin?, .none?, nil: false
        }
    }
}
