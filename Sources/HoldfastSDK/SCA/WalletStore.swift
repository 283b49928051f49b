import Foundation
import HoldfastProtocol

/// The wallet as this device keeps it, in `SecureStorage` (one item per holder application).
struct StoredWallet: Codable, Sendable, Hashable {
    var walletId: String
    var userId: String
    var applicationId: String
    var accessProtection: SCAAccessProtection
    var maxPinAttempts: Int
    var pinAttemptsLeft: Int
    var keyAlias: String
    /// `ready`, `locked` or `logout`.
    var state: WalletState
    var lockReason: SCALockReason?
    /// The PIN's salt and parameters and the PIN key (docs/DESIGN.md "The SCA wallet's PIN"); nil until the customer
    /// chose a PIN, and again after the back end reset the credentials.
    var pin: StoredPIN?
    /// The biometry key, for a wallet that allows biometry.
    var biometryKey: UserVerifiedKey?
    var credentialsSet: Bool
    /// The last event of the tenant's feed applied here.
    var lastEventId: Int64
    var clockOffsetMs: Int64
    /// The last proof counter used (`SCAProofClaims.counter`); nil before the first proof.
    var proofCounter: Int64?
    /// Why the device lost its eligibility (`deviceEligibilityLost`, or its integrity check before a signature);
    /// cleared by an eligible `checkEligibility()`.
    var ineligibility: SCAIneligibilityReason?
    /// The sunset announced for this app's version (`appSunsetScheduled`).
    var sunset: SCAMinimumAppVersion?

    var needsNewCredentials: Bool { accessProtection != .none && !credentialsSet }
}

/// The PIN as the device keeps it: what turns it into its secrets, and the PIN key they unlock.
struct StoredPIN: Codable, Sendable, Hashable {
    var derivation: WalletPINSecret
    var key: UserVerifiedKey
}

struct WalletStore: Sendable {
    let storage: any SecureStorage
    let applicationId: String

    var itemKey: String { "holdfast.sca-wallet.v1." + applicationId }
    var keyAlias: String { "holdfast.sca-wallet.\(applicationId)" }

    private var item: SecureStorageItem<StoredWallet> {
        SecureStorageItem(storage: storage, key: itemKey, description: "the SCA wallet of \(applicationId)")
    }

    func load() async throws(HoldfastError) -> StoredWallet? { try await item.load() }

    func save(_ wallet: StoredWallet) async throws(HoldfastError) { try await item.save(wallet) }

    func delete() async throws(HoldfastError) { try await item.delete() }
}
