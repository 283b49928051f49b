#if canImport(CryptoKit) && canImport(Security)
import Crypto
import CryptoKit
import Foundation
import Security

/// `SecureArea` in the Secure Enclave (DESIGN.md §3): P-256 keys made by CryptoKit's `SecureEnclave.P256`, whose
/// private part never leaves the enclave.
///
/// CryptoKit hands back each key as `dataRepresentation`, a blob only this device's enclave can use; the blob is
/// kept in `storage` (the Keychain, in `PlatformSeams.apple`) under a name derived from the alias
/// (`KeychainItemName`), and deleting it deletes the key. Who must be present to use a key is `keyAccess`
/// (`SecureEnclaveKeyAccess`); with a prompt, the system shows it when the key signs.
///
/// swift-crypto re-exports CryptoKit on Apple platforms, so the `P256` types of the `SecureArea` seam are
/// CryptoKit's own and the enclave's public keys and signatures are returned as they are.
public struct SecureEnclaveSecureArea: SecureArea {
    private let storage: any SecureStorage
    private let keyAccess: SecureEnclaveKeyAccess

    public init(storage: any SecureStorage, keyAccess: SecureEnclaveKeyAccess = .noUserAuthentication) {
        self.storage = storage
        self.keyAccess = keyAccess
    }

    /// Whether this device has a Secure Enclave (not the Simulator, not an Intel Mac without a T2 chip).
    public static var isAvailable: Bool { SecureEnclave.isAvailable }

    public func createKey(alias: String) async throws(SecureAreaError) -> P256.Signing.PublicKey {
        guard SecureEnclave.isAvailable else { throw .unavailable("this device has no Secure Enclave") }
        let accessControl = try Self.accessControl(for: keyAccess)
        let key: SecureEnclave.P256.Signing.PrivateKey
        do {
            key = try SecureEnclave.P256.Signing.PrivateKey(accessControl: accessControl)
        } catch {
            throw Self.secureAreaError(error, alias: alias)
        }
        do {
            try await storage.write(KeychainItemName.secureEnclaveKeyBlob(alias: alias), value: [UInt8](key.dataRepresentation))
        } catch {
            throw SecureAreaError(error)
        }
        return key.publicKey
    }

    public func publicKey(alias: String) async throws(SecureAreaError) -> P256.Signing.PublicKey? {
        try await privateKey(alias: alias)?.publicKey
    }

    public func sign(_ message: [UInt8], alias: String) async throws(SecureAreaError) -> P256.Signing.ECDSASignature {
        guard let key = try await privateKey(alias: alias) else { throw .keyNotFound(alias) }
        do {
            return try key.signature(for: message)
        } catch {
            throw Self.secureAreaError(error, alias: alias)
        }
    }

    public func deleteKey(alias: String) async throws(SecureAreaError) {
        do {
            try await storage.delete(KeychainItemName.secureEnclaveKeyBlob(alias: alias))
        } catch {
            throw SecureAreaError(error)
        }
    }

    private func privateKey(alias: String) async throws(SecureAreaError) -> SecureEnclave.P256.Signing.PrivateKey? {
        let blob: [UInt8]?
        do {
            blob = try await storage.read(KeychainItemName.secureEnclaveKeyBlob(alias: alias))
        } catch {
            throw SecureAreaError(error)
        }
        guard let blob else { return nil }
        guard SecureEnclave.isAvailable else { throw .unavailable("this device has no Secure Enclave") }
        do {
            return try SecureEnclave.P256.Signing.PrivateKey(dataRepresentation: Data(blob))
        } catch {
            throw .corrupted("the key under \(alias) is not a Secure Enclave key of this device")
        }
    }

    private static func accessControl(for access: SecureEnclaveKeyAccess) throws(SecureAreaError) -> SecAccessControl {
        var flags: SecAccessControlCreateFlags = []
        for flag in access.flags { flags.insert(flag.securityValue) }
        var error: Unmanaged<CFError>?
        guard let control = SecAccessControlCreateWithFlags(kCFAllocatorDefault, access.protection.securityValue, flags,
                                                            &error) else {
            let reason = error.map { String(describing: $0.takeRetainedValue()) } ?? "no reason given"
            throw .unavailable("SecAccessControlCreateWithFlags failed: \(reason)")
        }
        return control
    }

    /// Security's `OSStatus` errors follow `KeychainStatus`; anything else (CryptoKit, a refused prompt) leaves the
    /// key unusable now, not gone.
    private static func secureAreaError(_ error: any Error, alias: String) -> SecureAreaError {
        let nsError = error as NSError
        if nsError.domain == NSOSStatusErrorDomain {
            return KeychainStatus.secureAreaError(Int32(truncatingIfNeeded: nsError.code), alias: alias)
        }
        return .unavailable("key \(alias): \(error)")
    }
}
#endif
