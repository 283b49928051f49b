/// Where the Apple seams keep an item: a Keychain generic password (`kSecClassGenericPassword`) named by
/// `kSecAttrService` and `kSecAttrAccount`.
///
/// `KeychainSecureStorage` keeps each `SecureStorage` key as the account of one item of its service. The Secure
/// Enclave's keys are not keychain keys (CryptoKit hands back an encrypted blob that only this device's enclave can
/// use), so they have no `kSecAttrApplicationTag`: `SecureEnclaveSecureArea` keeps each blob as a `SecureStorage`
/// item named after the key's alias, and the Keychain holds it like any other item.
public struct KeychainItemName: Sendable, Hashable {
    public let service: String
    public let account: String

    /// The service of the SDK's items unless the app chooses another (the Linux seams' file is named alike).
    public static let defaultService = "holdfast-sdk"

    public init(service: String, account: String) {
        self.service = service
        self.account = account
    }

    /// The item that holds the `SecureStorage` value of `key`.
    public static func storageItem(_ key: String, service: String = defaultService) -> KeychainItemName {
        KeychainItemName(service: service, account: key)
    }

    /// The `SecureStorage` key under which `SecureEnclaveSecureArea` keeps the blob of the key `alias`. Distinct
    /// from `SoftwareSecureArea`'s keys, so that a software key is never read as an enclave blob or the reverse.
    static func secureEnclaveKeyBlob(alias: String) -> String {
        "secure-area.secure-enclave-key." + alias
    }
}
