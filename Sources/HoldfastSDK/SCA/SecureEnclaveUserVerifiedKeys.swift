#if canImport(CryptoKit) && canImport(Security) && canImport(LocalAuthentication)
import Crypto
import CryptoKit
import Foundation
import HoldfastProtocol
import LocalAuthentication
import Security

/// The wallet's PIN and biometry keys in the Secure Enclave (docs/DESIGN.md "The SCA wallet's PIN"). Compiled on
/// Apple platforms only and **not run by this project** (docs/security.md "What is not tested here"); the decisions it makes —
/// which factor, which unlock — are those `SoftwareUserVerifiedKeys` makes, tested on Linux.
///
/// - The PIN key's access control is `.privateKeyUsage` + `.applicationPassword`: the enclave signs only when the
///   `LAContext` carries the application password, which is the unlock key (`WalletPINSecret.unlockKey`: the PIN's
///   sealing part with the tenant's share). The PIN gates the key itself, and no PIN guess can be tried on the enclave
///   without the tenant releasing its share — which it does only for a right PIN, counting wrong ones.
/// - The biometry key's is `.privateKeyUsage` + `.biometryCurrentSet`: the enclave asks for the biometry enrolled when
///   the key was made; enrolling another finger or face retires the key (the customer sets credentials again).
///
/// The blob kept is the enclave's `dataRepresentation`, usable only by this device's enclave.
struct SecureEnclaveUserVerifiedKeys: UserVerifiedKeys {
    func makePINKey(unlockKey: SymmetricKey) async throws(HoldfastError) -> UserVerifiedKey {
        let context = LAContext()
        guard context.setCredential(unlockKey.withUnsafeBytes { Data($0) }, type: .applicationPassword) else {
            throw HoldfastError(.secureAreaUnavailable, "the application password could not be set")
        }
        return try make(.pin, flags: [.privateKeyUsage, .applicationPassword], context: context)
    }

    func makeBiometryKey() async throws(HoldfastError) -> UserVerifiedKey {
        try make(.biometry, flags: [.privateKeyUsage, .biometryCurrentSet], context: LAContext())
    }

    func sign(_ input: [UInt8], with key: UserVerifiedKey, unlock: UserVerifiedKeyUnlock) async throws(HoldfastError) -> [UInt8] {
        let context = LAContext()
        switch (key.factor, unlock) {
        case (.pin, .pin(let unlockKey)):
            guard context.setCredential(unlockKey.withUnsafeBytes { Data($0) }, type: .applicationPassword) else {
                throw HoldfastError(.secureAreaUnavailable, "the application password could not be set")
            }
        case (.biometry, .biometry(let reason)):
            context.localizedReason = reason
        default:
            throw HoldfastError(.patternUnavailable, "the \(key.factor.rawValue) key does not open that way")
        }
        do {
            let privateKey = try SecureEnclave.P256.Signing.PrivateKey(dataRepresentation: Data(key.blob), authenticationContext: context)
            return Array(try privateKey.signature(for: Data(input)).rawRepresentation)
        } catch {
            throw HoldfastError(key.factor == .biometry ? .userVerificationFailed : .secureAreaUnavailable,
                                "the Secure Enclave did not sign with the \(key.factor.rawValue) key: \(error)")
        }
    }

    private func make(_ factor: SCAPattern, flags: SecAccessControlCreateFlags, context: LAContext) throws(HoldfastError) -> UserVerifiedKey {
        guard SecureEnclave.isAvailable else { throw HoldfastError(.secureAreaUnavailable, "this device has no Secure Enclave") }
        guard let access = SecAccessControlCreateWithFlags(nil, kSecAttrAccessibleWhenUnlockedThisDeviceOnly, flags, nil) else {
            throw HoldfastError(.secureAreaUnavailable, "the key's access control could not be made")
        }
        do {
            let key = try SecureEnclave.P256.Signing.PrivateKey(accessControl: access, authenticationContext: context)
            return UserVerifiedKey(factor: factor, publicKey: InstancePublicKey(key.publicKey).encoded, blob: Array(key.dataRepresentation))
        } catch {
            throw HoldfastError(.secureAreaUnavailable, "the Secure Enclave did not make the \(factor.rawValue) key: \(error)")
        }
    }
}
#endif
