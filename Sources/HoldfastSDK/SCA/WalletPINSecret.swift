import _CryptoExtras
import Crypto
import Foundation
import HoldfastProtocol

/// What the device keeps to turn the customer's PIN into its two secrets (docs/DESIGN.md "The SCA wallet's PIN";
/// docs/sdk.md "SCA wallet (device)"): a random salt and scrypt's parameters (RFC 7914; memory-hard, 32 MiB and about 0.1 s
/// a try with the defaults). scrypt's output keys two HMAC-SHA256 values: the **PIN secret**, which the tenant checks
/// and counts, and the **sealing part**, which with the tenant's key share (released after a right PIN) makes the key
/// that unlocks the PIN key. Nothing here, nor anywhere in the device's state, can be checked against a PIN guess:
/// a wrong PIN gives other secrets that only the tenant can tell from the right ones.
struct WalletPINSecret: Codable, Sendable, Hashable {
    static let pinLengths = 6...8
    /// scrypt's N, r and p (RFC 7914 §2): N = 2^15 with r = 8 uses 32 MiB.
    static let defaultRounds = 1 << 15
    static let defaultBlockSize = 8
    static let defaultParallelism = 1
    static let secretInfo = Array("holdfast sca pin secret v1".utf8)
    static let sealingInfo = Array("holdfast sca pin sealing v1".utf8)
    static let unlockInfo = Array("holdfast sca pin key unlock v1".utf8)

    let salt: [UInt8]
    let rounds: Int
    let blockSize: Int
    let parallelism: Int

    /// The PIN's two secrets, 32 bytes each.
    struct Derived: Sendable {
        /// Sent to the tenant (`SCAPinAttemptRequest.pinSecret`), never kept.
        let secret: [UInt8]
        /// Kept in memory only while the PIN key is unlocked.
        let sealing: [UInt8]
    }

    /// Whether `pin` is 6 to 8 ASCII digits.
    static func isWellFormed(_ pin: String) -> Bool {
        pinLengths.contains(pin.utf8.count) && pin.utf8.allSatisfy { (0x30...0x39).contains($0) }
    }

    /// New parameters with a random salt.
    static func make(rounds: Int = defaultRounds) -> WalletPINSecret {
        WalletPINSecret(salt: random(count: 16), rounds: rounds, blockSize: defaultBlockSize, parallelism: defaultParallelism)
    }

    /// The secrets of `pin` (already checked well formed).
    func derive(_ pin: String) throws(HoldfastError) -> Derived {
        let stretched: SymmetricKey
        do {
            stretched = try KDF.Scrypt.deriveKey(from: Array(pin.utf8), salt: salt, outputByteCount: 32, rounds: rounds,
                                                 blockSize: blockSize, parallelism: parallelism)
        } catch {
            throw HoldfastError(.secureAreaUnavailable, "scrypt failed: \(error)")
        }
        return Derived(secret: Array(HMAC<SHA256>.authenticationCode(for: Self.secretInfo, using: stretched)),
                       sealing: Array(HMAC<SHA256>.authenticationCode(for: Self.sealingInfo, using: stretched)))
    }

    /// The key that unlocks the PIN key: HKDF-SHA256 (RFC 5869) of the sealing part and the tenant's key share,
    /// salted with the wallet id. Neither half alone gives it.
    static func unlockKey(sealing: [UInt8], share: [UInt8], walletId: String) -> SymmetricKey {
        HKDF<SHA256>.deriveKey(inputKeyMaterial: SymmetricKey(data: sealing + share), salt: Array(walletId.utf8), info: unlockInfo,
                               outputByteCount: 32)
    }

    static func random(count: Int) -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        return (0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) }
    }
}
