#if canImport(Security)
import Foundation
import Security

/// `SecureStorage` in the Keychain (DESIGN.md §3): one generic password per key (`KeychainItemName`), protected
/// `kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly` — readable in the background once the device has been unlocked
/// after boot, never restored to another device.
///
/// *Absent* is `errSecItemNotFound` and nothing else; a locked keychain (`errSecInteractionNotAllowed`) and every
/// other failure are *unavailable* (`KeychainStatus`).
public struct KeychainSecureStorage: SecureStorage {
    private let service: String
    private let accessGroup: String?
    private let usesDataProtectionKeychain: Bool

    /// - Parameters:
    ///   - service: the `kSecAttrService` of the SDK's items.
    ///   - accessGroup: a keychain access group shared with the app's extensions, if any.
    ///   - usesDataProtectionKeychain: on macOS, use the data protection keychain (`kSecUseDataProtectionKeychain`),
    ///     where protection classes apply as on iOS; it needs a signed app with a keychain entitlement (unsigned
    ///     tools get `errSecMissingEntitlement`). Ignored on iOS, which has no other keychain.
    public init(service: String = KeychainItemName.defaultService, accessGroup: String? = nil,
                usesDataProtectionKeychain: Bool = true) {
        self.service = service
        self.accessGroup = accessGroup
        self.usesDataProtectionKeychain = usesDataProtectionKeychain
    }

    public func read(_ key: String) async throws(SecureStorageError) -> [UInt8]? {
        var query = itemQuery(key)
        query[kSecReturnData as String] = true
        query[kSecMatchLimit as String] = kSecMatchLimitOne
        var result: CFTypeRef?
        let status = SecItemCopyMatching(query as CFDictionary, &result)
        switch try KeychainStatus.readOutcome(status, item: key) {
        case .absent:
            return nil
        case .found:
            guard let data = result as? Data else { throw .corrupted("the keychain item \(key) holds no data") }
            return [UInt8](data)
        }
    }

    public func write(_ key: String, value: [UInt8]) async throws(SecureStorageError) {
        let query = itemQuery(key)
        let attributes: [String: Any] = [
            kSecValueData as String: Data(value),
            kSecAttrAccessible as String: KeychainProtection.secureStorage.securityValue,
        ]
        var step = try KeychainStatus.afterUpdate(SecItemUpdate(query as CFDictionary, attributes as CFDictionary), item: key)
        if step == .addItem {
            let item = query.merging(attributes) { _, new in new }
            step = try KeychainStatus.afterAdd(SecItemAdd(item as CFDictionary, nil), item: key)
        }
        if step == .updateItem {
            step = try KeychainStatus.afterUpdate(SecItemUpdate(query as CFDictionary, attributes as CFDictionary), item: key)
        }
        guard step == .done else {
            throw .unavailable("keychain write \(key): the item was deleted and added again by another writer meanwhile")
        }
    }

    public func delete(_ key: String) async throws(SecureStorageError) {
        try KeychainStatus.afterDelete(SecItemDelete(itemQuery(key) as CFDictionary), item: key)
    }

    private func itemQuery(_ key: String) -> [String: Any] {
        let name = KeychainItemName.storageItem(key, service: service)
        var query: [String: Any] = [
            kSecClass as String: kSecClassGenericPassword,
            kSecAttrService as String: name.service,
            kSecAttrAccount as String: name.account,
        ]
        if let accessGroup { query[kSecAttrAccessGroup as String] = accessGroup }
        if usesDataProtectionKeychain { query[kSecUseDataProtectionKeychain as String] = true }
        return query
    }
}
#endif
