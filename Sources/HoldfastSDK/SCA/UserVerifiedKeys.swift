import Crypto
import Foundation
import HoldfastProtocol
import JOSE

/// A key that signs only when the customer proved a factor (docs/DESIGN.md "The SCA wallet's PIN"): the **PIN key**,
/// which needs the key unlocked by the PIN and the tenant's share (`WalletPINSecret.unlockKey`), and the **biometry
/// key**, which needs the platform's biometric check. The tenant holds their public halves and checks `pin` proofs
/// with the first, `biometry` proofs with the second, so a proof's `pattern` is the key that made it.
struct UserVerifiedKey: Codable, Sendable, Hashable {
    /// `pin` or `biometry`.
    let factor: SCAPattern
    /// `InstancePublicKey.encoded`.
    let publicKey: String
    /// What the device keeps to use the key: sealed under the unlock key (software PIN key), the key itself (software
    /// biometry key, behind the scripted check), or the Secure Enclave's handle of the key (Apple platforms).
    let blob: [UInt8]
}

/// What unlocks a `UserVerifiedKey` for one signature.
enum UserVerifiedKeyUnlock: Sendable {
    /// The unlock key, from a right PIN and the tenant's share.
    case pin(SymmetricKey)
    /// The platform's biometric prompt, with the operation's message.
    case biometry(reason: String)
}

/// Where the wallet's PIN and biometry keys live: `SoftwareUserVerifiedKeys` (every platform; the Linux one), and
/// `SecureEnclaveUserVerifiedKeys` on Apple platforms where the wallet key is a Secure Enclave key.
protocol UserVerifiedKeys: Sendable {
    /// A new PIN key that signs only with `unlockKey`.
    func makePINKey(unlockKey: SymmetricKey) async throws(HoldfastError) -> UserVerifiedKey
    /// A new biometry key that signs only after the platform's biometric check (on Apple platforms, by the biometry
    /// enrolled now: enrolling another finger or face retires it).
    func makeBiometryKey() async throws(HoldfastError) -> UserVerifiedKey
    /// The raw ES256 signature (`r ‖ s`) of `input`.
    func sign(_ input: [UInt8], with key: UserVerifiedKey, unlock: UserVerifiedKeyUnlock) async throws(HoldfastError) -> [UInt8]
}

/// Software P-256 keys: the PIN key's private half sealed with AES-GCM under the unlock key (so a copy of the state
/// holds only a box no PIN guess opens without the tenant), the biometry key's kept as it is behind the
/// `UserVerification` seam (scripted on Linux: docs/security.md "What is not tested here").
struct SoftwareUserVerifiedKeys: UserVerifiedKeys {
    static let sealedContext = Array("holdfast sca pin key v1".utf8)

    let userVerification: any UserVerification

    func makePINKey(unlockKey: SymmetricKey) async throws(HoldfastError) -> UserVerifiedKey {
        let key = P256.Signing.PrivateKey()
        do {
            let box = try AES.GCM.seal(key.rawRepresentation, using: unlockKey, authenticating: Self.sealedContext)
            guard let combined = box.combined else { throw HoldfastError(.secureAreaUnavailable, "AES-GCM gave no combined form") }
            return UserVerifiedKey(factor: .pin, publicKey: InstancePublicKey(key.publicKey).encoded, blob: Array(combined))
        } catch {
            throw HoldfastError.wrap(error)
        }
    }

    func makeBiometryKey() async throws(HoldfastError) -> UserVerifiedKey {
        let key = P256.Signing.PrivateKey()
        return UserVerifiedKey(factor: .biometry, publicKey: InstancePublicKey(key.publicKey).encoded, blob: Array(key.rawRepresentation))
    }

    func sign(_ input: [UInt8], with key: UserVerifiedKey, unlock: UserVerifiedKeyUnlock) async throws(HoldfastError) -> [UInt8] {
        let raw: [UInt8]
        switch (key.factor, unlock) {
        case (.pin, .pin(let unlockKey)):
            guard let box = try? AES.GCM.SealedBox(combined: key.blob),
                  let opened = try? AES.GCM.open(box, using: unlockKey, authenticating: Self.sealedContext) else {
                throw HoldfastError(.secureStorageCorrupted, "the PIN key does not open with the tenant's share: set the credentials again")
            }
            raw = Array(opened)
        case (.biometry, .biometry(let reason)):
            do { try await userVerification.verify(.biometry, reason: reason) } catch {
                throw HoldfastError(.userVerificationFailed, "the user was not verified: \(error.code)")
            }
            raw = key.blob
        default:
            throw HoldfastError(.patternUnavailable, "the \(key.factor.rawValue) key does not open that way")
        }
        do {
            let privateKey = try P256.Signing.PrivateKey(rawRepresentation: raw)
            return Array(try privateKey.signature(for: input).rawRepresentation)
        } catch {
            throw HoldfastError(.secureStorageCorrupted, "the wallet's \(key.factor.rawValue) key is damaged")
        }
    }
}

/// A `UserVerifiedKey` as a JWS signer, unlocked for one signature.
struct UserVerifiedKeySigner: JWSSigner {
    let keys: any UserVerifiedKeys
    let key: UserVerifiedKey
    let unlock: UserVerifiedKeyUnlock
    let publicKey: P256.Signing.PublicKey

    init(keys: any UserVerifiedKeys, key: UserVerifiedKey, unlock: UserVerifiedKeyUnlock) throws(HoldfastError) {
        guard let publicKey = try? InstancePublicKey(encoded: key.publicKey) else {
            throw HoldfastError(.secureStorageCorrupted, "the wallet's \(key.factor.rawValue) key is damaged")
        }
        self.keys = keys
        self.key = key
        self.unlock = unlock
        self.publicKey = publicKey.key
    }

    var algorithm: JWSAlgorithm { .es256 }
    var publicJWK: JWK { JWK(publicKey: publicKey) }

    func signature(for signingInput: [UInt8]) async throws -> [UInt8] {
        try await keys.sign(signingInput, with: key, unlock: unlock)
    }
}

extension WalletManager {
    /// The PIN and biometry keys' home: the Secure Enclave where the wallet key is a Secure Enclave key, software keys
    /// otherwise.
    static func userVerifiedKeys(seams: PlatformSeams) -> any UserVerifiedKeys {
        #if canImport(CryptoKit) && canImport(Security) && canImport(LocalAuthentication)
        if seams.secureArea is SecureEnclaveSecureArea { return SecureEnclaveUserVerifiedKeys() }
        #endif
        return SoftwareUserVerifiedKeys(userVerification: seams.userVerification)
    }
}
