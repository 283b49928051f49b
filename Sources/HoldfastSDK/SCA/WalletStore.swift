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
    /// Set once the customer chose credentials; nil until then, and again after the back end reset them.
    var vault: WalletPINVault?
    var credentialsSet: Bool
    /// The last event of the tenant's feed applied here.
    var lastEventId: Int64
    /// PIN attempt outcomes not yet delivered to the tenant, oldest first.
    var pendingReports: [SCAPinAttemptOutcome]
    var clockOffsetMs: Int64

    var needsNewCredentials: Bool { accessProtection != .none && !credentialsSet }
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
