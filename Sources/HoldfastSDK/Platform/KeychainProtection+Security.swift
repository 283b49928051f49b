#if canImport(Security)
import Security

extension KeychainProtection {
    /// The `kSecAttrAccessible…` constant of the class.
    var securityValue: CFString {
        switch self {
        case .afterFirstUnlockThisDeviceOnly: kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly
        case .whenUnlockedThisDeviceOnly: kSecAttrAccessibleWhenUnlockedThisDeviceOnly
        }
    }
}

extension AccessControlFlag {
    /// The Security framework's flag of the same name.
    var securityValue: SecAccessControlCreateFlags {
        switch self {
        case .userPresence: .userPresence
        case .biometryCurrentSet: .biometryCurrentSet
        case .privateKeyUsage: .privateKeyUsage
        }
    }
}
#endif
