import Foundation
import HoldfastProtocol

/// The SCA wallet's state on this device (docs/sdk.md "SCA wallet (device)"), read from the device's own store: never the network.
public enum WalletState: String, Sendable, Hashable, Codable {
    /// No wallet here (never provisioned, or deleted by the back end).
    case notProvisioned
    /// Provisioned and usable (credentials may still be to set: `connect()` says so).
    case ready
    /// Locked by the back end, or after the last wrong PIN; only the back end unlocks it.
    case locked
    /// The customer logged out: the next `connect` asks for the current credentials.
    case logout
}

/// What `WalletManager.status()` reads from the device's store.
public struct WalletStatus: Sendable, Hashable, Codable {
    public var state: WalletState
    public var walletId: String?
    public var userId: String?
    public var accessProtection: SCAAccessProtection?
    /// Whether the customer's credentials are set (false right after provisioning and after a reset).
    public var credentialsSet: Bool?
    public var pinAttemptsLeft: Int?
    public var maxPinAttempts: Int?
    public var lockReason: SCALockReason?
    /// The last event of the tenant's feed applied on the device.
    public var lastEventId: Int64?
    /// The last proof counter used (the tenant requires each proof's to be above the last it accepted).
    public var proofCounter: Int64?
    /// Why the device is no longer eligible (its proofs are refused with `DEVICE_NOT_ELIGIBLE`).
    public var ineligibility: SCAIneligibilityReason?
    /// The sunset announced for this app's version (past it, `APP_SUNSET`).
    public var sunset: SCAMinimumAppVersion?

    public init(state: WalletState, walletId: String? = nil, userId: String? = nil, accessProtection: SCAAccessProtection? = nil,
                credentialsSet: Bool? = nil, pinAttemptsLeft: Int? = nil, maxPinAttempts: Int? = nil, lockReason: SCALockReason? = nil,
                lastEventId: Int64? = nil, proofCounter: Int64? = nil, ineligibility: SCAIneligibilityReason? = nil,
                sunset: SCAMinimumAppVersion? = nil) {
        self.state = state
        self.walletId = walletId
        self.userId = userId
        self.accessProtection = accessProtection
        self.credentialsSet = credentialsSet
        self.pinAttemptsLeft = pinAttemptsLeft
        self.maxPinAttempts = maxPinAttempts
        self.lockReason = lockReason
        self.lastEventId = lastEventId
        self.proofCounter = proofCounter
        self.ineligibility = ineligibility
        self.sunset = sunset
    }
}

/// Which credentials `connect` needs: `new` right after provisioning or after the back end reset them, `current`
/// after a logout.
public enum WalletCredentialsKind: String, Sendable, Hashable {
    case new
    case current
}

/// What the customer gives to unlock the wallet's signing capability.
public enum WalletCredentials: Sendable, Hashable, CustomStringConvertible {
    /// A PIN of 6 to 8 digits.
    case pin(String)
    /// The platform's biometric check (asked by the SDK through the `UserVerification` seam).
    case biometry

    /// Refuses credentials that no wallet could take — a PIN that is not 6 to 8 digits — with `VALIDATION_FAILED`, so
    /// that an app (and `holdfast device sca provision`) checks what the customer typed before anything irreversible,
    /// such as spending the one-time activation code (docs/sdk.md "SCA wallet (device)"). The manager checks the same
    /// before each use.
    public func validate() throws(HoldfastError) {
        if case .pin(let pin) = self { try WalletManager.wellFormed(pin) }
    }

    /// Never the PIN itself (so that printing a value cannot leak it).
    public var description: String {
        switch self {
        case .pin: "pin(••••••)"
        case .biometry: "biometry"
        }
    }
}

/// How `connect` ended: exactly one of these.
public enum WalletConnectionResult: Sendable {
    case connectionSuccess(Wallet)
    case provisioningRequired
    case credentialsRequired(WalletCredentialsKind)
    case connectionError(HoldfastError)
}

/// Something that happened to the wallet, from the tenant's event feed or on the device. Each is delivered to the
/// `WalletEventListener` and to every `WalletManager.events` stream.
public enum WalletEvent: Sendable, Hashable {
    case connectionSuccess(walletId: String)
    case provisioningRequired
    case credentialsRequired(WalletCredentialsKind)
    case connectionError(HoldfastError)
    /// The back end activated the wallet for this device.
    case walletLoaded
    case settingsUpdated
    case productsUpdated
    /// PIN attempts left, after a wrong PIN (on the device or reported by the back end).
    case countersUpdated(pinAttemptsLeft: Int)
    /// The back end reset the customer's credentials: the next `connect` asks for new ones.
    case customerCredentialsReset
    /// `reason`: `LOST_DEVICE`, `STOLEN_DEVICE`, `FRAUD_SUSPICION`, `OTHER` (the back end) or `PIN_ATTEMPTS`.
    case walletLocked(reason: SCALockReason)
    case walletUnlocked
    /// `reason`: `DEVICE_MODEL_BLOCKED`, `APP_VERSION_UNSUPPORTED` or `DEVICE_INTEGRITY`.
    case deviceEligibilityLost(reason: SCAIneligibilityReason)
    case walletDeleted
    /// Versions below `minimumVersion` stop being supported at `sunsetAt`.
    case appSunsetScheduled(minimumVersion: String, sunsetAt: Date)
    case logout

    /// The event's name, as the tenant's feed and the delegate methods say it (`walletLocked`, `countersUpdated` …).
    public var name: String {
        switch self {
        case .connectionSuccess: "connectionSuccess"
        case .provisioningRequired: "provisioningRequired"
        case .credentialsRequired: "credentialsRequired"
        case .connectionError: "connectionError"
        case .walletLoaded: "walletLoaded"
        case .settingsUpdated: "settingsUpdated"
        case .productsUpdated: "productsUpdated"
        case .countersUpdated: "countersUpdated"
        case .customerCredentialsReset: "customerCredentialsReset"
        case .walletLocked: "walletLocked"
        case .walletUnlocked: "walletUnlocked"
        case .deviceEligibilityLost: "deviceEligibilityLost"
        case .walletDeleted: "walletDeleted"
        case .appSunsetScheduled: "appSunsetScheduled"
        case .logout: "logout"
        }
    }
}

/// What the device can use, as `checkEligibility()` finds it.
public enum WalletFeature: String, Sendable, Hashable, CaseIterable {
    case pin
    case biometry
    /// The platform attests keys (App Attest, Android Key Attestation); otherwise the wallet key is registered with an
    /// assertion, where the holder application allows it.
    case platformAttestation
}

/// `checkEligibility()`'s answer.
public enum EligibilityResult: Sendable, Hashable {
    case deviceEligible(Set<WalletFeature>)
    /// `reason`: `DEVICE_INTEGRITY`, `DEVICE_MODEL_BLOCKED` or `APP_VERSION_UNSUPPORTED`; the tenant recorded the
    /// denial under `denialReference`.
    case deviceNotEligible(reason: SCAIneligibilityReason, denialReference: String)
    case checkEligibilityError(HoldfastError)
}

/// `provision(activationCode:)`'s answer.
public enum ProvisioningResult: Sendable, Hashable {
    case provisioningSuccess(walletId: String)
    case provisioningError(HoldfastError)
}

/// Delegate style (docs/sdk.md "SCA wallet (device)"): the outcome of each `connect`. Every method has an empty default.
public protocol WalletManagerDelegate: AnyObject, Sendable {
    func onConnectionSuccess(_ wallet: Wallet)
    func onProvisioningRequired()
    func onCredentialsRequired(_ kind: WalletCredentialsKind)
    func onConnectionError(_ error: HoldfastError)
}

public extension WalletManagerDelegate {
    func onConnectionSuccess(_ wallet: Wallet) {}
    func onProvisioningRequired() {}
    func onCredentialsRequired(_ kind: WalletCredentialsKind) {}
    func onConnectionError(_ error: HoldfastError) {}
}

/// Delegate style: eligibility and provisioning outcomes.
public protocol WalletProvisioningDelegate: AnyObject, Sendable {
    func onDeviceEligible(_ features: Set<WalletFeature>)
    func onDeviceNotEligible(reason: SCAIneligibilityReason, denialReference: String)
    func onCheckEligibilityError(_ error: HoldfastError)
    func onProvisioningSuccess(walletId: String)
    func onProvisioningError(_ error: HoldfastError)
}

public extension WalletProvisioningDelegate {
    func onDeviceEligible(_ features: Set<WalletFeature>) {}
    func onDeviceNotEligible(reason: SCAIneligibilityReason, denialReference: String) {}
    func onCheckEligibilityError(_ error: HoldfastError) {}
    func onProvisioningSuccess(walletId: String) {}
    func onProvisioningError(_ error: HoldfastError) {}
}

/// Delegate style: every `WalletEvent` to `onWalletEvent(_:)`, and each of the wallet's events also to the callback
/// named after it (docs/sdk.md "SCA wallet (device)": `onSettingsUpdated`, `onProductsUpdated`, `onCountersUpdated` …).
/// The connect outcomes have theirs in `WalletManagerDelegate` (`onConnectionSuccess` …), so that an object that is
/// both hears each once. Every method has an empty default, so a listener implements the ones it needs.
public protocol WalletEventListener: AnyObject, Sendable {
    /// Every event, whatever its kind (beside the callback named after it).
    func onWalletEvent(_ event: WalletEvent)
    func onWalletLoaded()
    func onSettingsUpdated()
    func onProductsUpdated()
    func onCountersUpdated(pinAttemptsLeft: Int)
    func onCustomerCredentialsReset()
    func onWalletLocked(reason: SCALockReason)
    func onWalletUnlocked()
    func onDeviceEligibilityLost(reason: SCAIneligibilityReason)
    func onWalletDeleted()
    func onAppSunsetScheduled(minimumVersion: String, sunsetAt: Date)
    func onLogout()
}

public extension WalletEventListener {
    func onWalletEvent(_ event: WalletEvent) {}
    func onWalletLoaded() {}
    func onSettingsUpdated() {}
    func onProductsUpdated() {}
    func onCountersUpdated(pinAttemptsLeft: Int) {}
    func onCustomerCredentialsReset() {}
    func onWalletLocked(reason: SCALockReason) {}
    func onWalletUnlocked() {}
    func onDeviceEligibilityLost(reason: SCAIneligibilityReason) {}
    func onWalletDeleted() {}
    func onAppSunsetScheduled(minimumVersion: String, sunsetAt: Date) {}
    func onLogout() {}
}

extension WalletEventListener {
    /// `event` to `onWalletEvent(_:)`, then to its own callback.
    func deliver(_ event: WalletEvent) {
        onWalletEvent(event)
        switch event {
        case .connectionSuccess, .provisioningRequired, .credentialsRequired, .connectionError: break
        case .walletLoaded: onWalletLoaded()
        case .settingsUpdated: onSettingsUpdated()
        case .productsUpdated: onProductsUpdated()
        case .countersUpdated(let left): onCountersUpdated(pinAttemptsLeft: left)
        case .customerCredentialsReset: onCustomerCredentialsReset()
        case .walletLocked(let reason): onWalletLocked(reason: reason)
        case .walletUnlocked: onWalletUnlocked()
        case .deviceEligibilityLost(let reason): onDeviceEligibilityLost(reason: reason)
        case .walletDeleted: onWalletDeleted()
        case .appSunsetScheduled(let version, let date): onAppSunsetScheduled(minimumVersion: version, sunsetAt: date)
        case .logout: onLogout()
        }
    }
}
