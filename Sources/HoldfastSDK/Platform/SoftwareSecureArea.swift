import Crypto
import Foundation

/// `SecureArea` for Linux and tests: software P-256 keys (swift-crypto) whose private part is kept in a
/// `SecureStorage`. There is no hardware isolation on Linux; the SDK says so in the registration's
/// `appAttestationType: none`, and servers decide whether to accept it.
public struct SoftwareSecureArea: SecureArea {
    private let storage: any SecureStorage

    public init(storage: any SecureStorage) {
        self.storage = storage
    }

    public func createKey(alias: String) async throws(SecureAreaError) -> P256.Signing.PublicKey {
        let key = P256.Signing.PrivateKey()
        do {
            try await storage.write(Self.storageKey(alias), value: [UInt8](key.rawRepresentation))
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
            throw .unavailable("signing failed: \(error)")
        }
    }

    public func deleteKey(alias: String) async throws(SecureAreaError) {
        do {
            try await storage.delete(Self.storageKey(alias))
        } catch {
            throw SecureAreaError(error)
        }
    }

    private func privateKey(alias: String) async throws(SecureAreaError) -> P256.Signing.PrivateKey? {
        let raw: [UInt8]?
        do {
            raw = try await storage.read(Self.storageKey(alias))
        } catch {
            throw SecureAreaError(error)
        }
        guard let raw else { return nil }
        do {
            return try P256.Signing.PrivateKey(rawRepresentation: raw)
        } catch {
            throw .corrupted("the key under \(alias) is not a P-256 private key")
        }
    }

    private static func storageKey(_ alias: String) -> String { "secure-area.key." + alias }
}
