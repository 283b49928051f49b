/// Who must be present for the Secure Enclave to use a key — the choice behind the key's `SecAccessControl`
/// (Apple, "Protecting keys with the Secure Enclave"). Every choice includes `.privateKeyUsage`, which the enclave
/// requires of its keys.
public enum SecureEnclaveKeyAccess: Sendable, Hashable, CaseIterable {
    /// The key signs without a prompt once the device has been unlocked after boot: the tethering key, which signs
    /// license renewals and DPoP proofs in the background.
    case noUserAuthentication
    /// Every use needs the biometry enrolled when the key was made; enrolling another finger or face retires the
    /// key for good.
    case biometryCurrentSet
    /// Every use needs biometry or the device passcode.
    case userPresence

    /// The `SecAccessControlCreateFlags` of the key, in the order they are combined.
    var flags: [AccessControlFlag] {
        switch self {
        case .noUserAuthentication: [.privateKeyUsage]
        case .biometryCurrentSet: [.privateKeyUsage, .biometryCurrentSet]
        case .userPresence: [.privateKeyUsage, .userPresence]
        }
    }

    /// The key's protection class. A prompt needs an unlocked device anyway, so keys behind one are usable only then;
    /// a key without one must work in the background after the first unlock.
    var protection: KeychainProtection {
        self == .noUserAuthentication ? .afterFirstUnlockThisDeviceOnly : .whenUnlockedThisDeviceOnly
    }
}

/// The `SecAccessControlCreateFlags` the SDK uses; `rawValue` mirrors Security/SecAccessControl.h (a test compares
/// them with the framework's on Apple platforms).
enum AccessControlFlag: UInt, Sendable, Hashable, CaseIterable {
    case userPresence = 0x1
    case biometryCurrentSet = 0x8
    case privateKeyUsage = 0x4000_0000

    /// The flags as one `SecAccessControlCreateFlags` raw value.
    static func combined(_ flags: [AccessControlFlag]) -> UInt {
        flags.reduce(0) { $0 | $1.rawValue }
    }
}

/// The Keychain protection classes (`kSecAttrAccessible…`) the SDK uses: all *ThisDeviceOnly*, so that nothing the
/// SDK keeps moves to another device in a backup.
enum KeychainProtection: Sendable, Hashable {
    /// `kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly`
    case afterFirstUnlockThisDeviceOnly
    /// `kSecAttrAccessibleWhenUnlockedThisDeviceOnly`
    case whenUnlockedThisDeviceOnly

    /// `KeychainSecureStorage`'s items: readable in the background after the first unlock (license renewal), and
    /// *unavailable* — `errSecInteractionNotAllowed`, never *absent* — before it.
    static let secureStorage = KeychainProtection.afterFirstUnlockThisDeviceOnly
}
