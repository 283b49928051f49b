import Foundation

/// The SDK's seam to the platform's secret store (docs/DESIGN.md §3): the Keychain on Apple platforms
/// (`KeychainSecureStorage`), an encrypted file on Linux (`FileSecureStorage`).
///
/// *Absent* and *unavailable* are different answers on purpose: `read` returns `nil` only when the item is
/// known not to exist, and throws `SecureStorageError.unavailable` when the store cannot be read right now
/// (a locked device, a keychain not yet available after boot). Tethering relies on this: an unavailable store
/// must never be mistaken for a fresh install and trigger a silent re-registration.
public protocol SecureStorage: Sendable {
    /// The stored bytes, or `nil` when no item exists under `key`.
    func read(_ key: String) async throws(SecureStorageError) -> [UInt8]?
    /// Stores `value` under `key`, replacing what was there.
    func write(_ key: String, value: [UInt8]) async throws(SecureStorageError)
    /// Removes the item; removing an absent item is not an error.
    func delete(_ key: String) async throws(SecureStorageError)
}

/// Why a secure storage operation failed.
public enum SecureStorageError: Error, Sendable, Hashable {
    /// The store exists but cannot be used now; try again later and do not assume the item is gone.
    case unavailable(String)
    /// The stored data is damaged or was written with another key.
    case corrupted(String)

    public var code: String {
        switch self {
        case .unavailable: "SECURE_STORAGE_UNAVAILABLE"
        case .corrupted: "SECURE_STORAGE_CORRUPTED"
        }
    }
}
