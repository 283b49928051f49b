import Crypto
import Foundation

/// The SDK's seam to the device's key store (docs/DESIGN.md §3): the Secure Enclave on Apple platforms
/// (`SecureEnclaveSecureArea`), software P-256 keys kept in `SecureStorage` on Linux (`SoftwareSecureArea`). Keys
/// never leave it; callers get the public key and signatures.
public protocol SecureArea: Sendable {
    /// Creates a new P-256 signing key under `alias`, replacing any key of that alias.
    func createKey(alias: String) async throws(SecureAreaError) -> P256.Signing.PublicKey
    /// The public key under `alias`, or `nil` when there is none.
    func publicKey(alias: String) async throws(SecureAreaError) -> P256.Signing.PublicKey?
    /// ECDSA P-256 / SHA-256 signature over `message` with the key under `alias`.
    func sign(_ message: [UInt8], alias: String) async throws(SecureAreaError) -> P256.Signing.ECDSASignature
    /// Deletes the key; deleting an absent key is not an error.
    func deleteKey(alias: String) async throws(SecureAreaError)
}

/// Why a secure area operation failed.
public enum SecureAreaError: Error, Sendable, Hashable {
    case keyNotFound(String)
    case unavailable(String)
    case corrupted(String)

    public var code: String {
        switch self {
        case .keyNotFound: "KEY_NOT_FOUND"
        case .unavailable: "SECURE_AREA_UNAVAILABLE"
        case .corrupted: "SECURE_AREA_CORRUPTED"
        }
    }
}

extension SecureAreaError {
    /// A failure of the `SecureStorage` that keeps the key (or the enclave's blob of it): the same answer, said of
    /// the key.
    init(_ storageError: SecureStorageError) {
        switch storageError {
        case .unavailable(let reason): self = .unavailable(reason)
        case .corrupted(let reason): self = .corrupted(reason)
        }
    }
}
