import Crypto
import Foundation
import HoldfastSDK

/// An in-memory `SecureArea` that keeps every key it deleted, so that a test can still sign with the key a
/// rotation retired and show that the tenant refuses it.
actor RetainingSecureArea: SecureArea {
    private var keys: [String: P256.Signing.PrivateKey] = [:]
    private(set) var retired: [P256.Signing.PrivateKey] = []

    func createKey(alias: String) async throws(SecureAreaError) -> P256.Signing.PublicKey {
        if let old = keys[alias] { retired.append(old) }
        let key = P256.Signing.PrivateKey()
        keys[alias] = key
        return key.publicKey
    }

    func publicKey(alias: String) async throws(SecureAreaError) -> P256.Signing.PublicKey? {
        keys[alias]?.publicKey
    }

    func sign(_ message: [UInt8], alias: String) async throws(SecureAreaError) -> P256.Signing.ECDSASignature {
        guard let key = keys[alias] else { throw .keyNotFound(alias) }
        do { return try key.signature(for: message) } catch { throw .unavailable(String(describing: error)) }
    }

    func deleteKey(alias: String) async throws(SecureAreaError) {
        if let key = keys.removeValue(forKey: alias) { retired.append(key) }
    }

    /// The private key currently under `alias`.
    func privateKey(alias: String) -> P256.Signing.PrivateKey? { keys[alias] }
}
