import _CryptoExtras
import Crypto
import Foundation
import HoldfastProtocol

/// The PIN's part in the SCA wallet (README "SCA wallet"): the PIN is stretched with scrypt (RFC 7914; memory-hard,
/// 32 MiB and about 0.1 s a try with the parameters below) into a key that seals, with AES-GCM, the wallet's
/// signing capability — a random secret the SDK must recover before it lets the secure area sign a proof. Only the
/// salt, the scrypt parameters and the sealed box are kept; the PIN itself is never stored, logged or sent. A wrong
/// PIN fails the box's authentication tag, so it is detected before the signing key can be used.
struct WalletPINVault: Codable, Sendable, Hashable {
    static let pinLengths = 6...8
    /// scrypt's N, r and p (RFC 7914 §2): N = 2^15 with r = 8 uses 32 MiB.
    static let defaultRounds = 1 << 15
    static let defaultBlockSize = 8
    static let defaultParallelism = 1

    let salt: [UInt8]
    let rounds: Int
    let blockSize: Int
    let parallelism: Int
    /// AES-GCM combined form (nonce, ciphertext, tag) of the capability, with the wallet id as associated data.
    let sealed: [UInt8]

    /// Whether `pin` is 6 to 8 ASCII digits.
    static func isWellFormed(_ pin: String) -> Bool {
        pinLengths.contains(pin.utf8.count) && pin.utf8.allSatisfy { (0x30...0x39).contains($0) }
    }

    /// A new capability sealed under `pin` (already checked well formed).
    static func seal(pin: String, walletId: String) throws(HoldfastError) -> WalletPINVault {
        var salt = [UInt8](repeating: 0, count: 16)
        var generator = SystemRandomNumberGenerator()
        for index in salt.indices { salt[index] = UInt8.random(in: 0...255, using: &generator) }
        let capability = SymmetricKey(size: .bits256)
        let key = try derive(pin: pin, salt: salt, rounds: defaultRounds, blockSize: defaultBlockSize, parallelism: defaultParallelism)
        do {
            let box = try capability.withUnsafeBytes { bytes in
                try AES.GCM.seal(Array(bytes), using: key, authenticating: Array(walletId.utf8))
            }
            guard let combined = box.combined else { throw HoldfastError(.secureAreaUnavailable, "AES-GCM gave no combined form") }
            return WalletPINVault(salt: salt, rounds: defaultRounds, blockSize: defaultBlockSize, parallelism: defaultParallelism,
                                  sealed: Array(combined))
        } catch {
            throw HoldfastError.wrap(error)
        }
    }

    /// Whether `pin` opens the box (the capability is recovered, and dropped at once: the caller only needs to know).
    func opens(with pin: String, walletId: String) throws(HoldfastError) -> Bool {
        guard Self.isWellFormed(pin) else { return false }
        let key = try Self.derive(pin: pin, salt: salt, rounds: rounds, blockSize: blockSize, parallelism: parallelism)
        guard let box = try? AES.GCM.SealedBox(combined: sealed) else {
            throw HoldfastError(.secureStorageCorrupted, "the wallet's sealed capability is damaged")
        }
        return (try? AES.GCM.open(box, using: key, authenticating: Array(walletId.utf8))) != nil
    }

    private static func derive(pin: String, salt: [UInt8], rounds: Int, blockSize: Int, parallelism: Int) throws(HoldfastError) -> SymmetricKey {
        do {
            return try KDF.Scrypt.deriveKey(from: Array(pin.utf8), salt: salt, outputByteCount: 32, rounds: rounds,
                                            blockSize: blockSize, parallelism: parallelism)
        } catch {
            throw HoldfastError(.secureAreaUnavailable, "scrypt failed: \(error)")
        }
    }
}
