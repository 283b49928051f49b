/// The Security framework result codes (`OSStatus`, an `Int32`) that the Keychain and Secure Enclave seams act on,
/// and what each means for the SDK — written over plain `Int32` values so that the rules build and are tested on
/// Linux. The values are Security/SecBase.h's; on Apple platforms a test compares them with the framework's.
///
/// The rule the `SecureStorage` seam requires (DESIGN.md §3): only `errSecItemNotFound` means *absent*. Every other
/// failure — above all `errSecInteractionNotAllowed`, the keychain of a locked device — is *unavailable*, so that
/// tethering never mistakes a locked phone for a fresh install.
enum KeychainStatus {
    static let success: Int32 = 0
    static let param: Int32 = -50
    static let allocate: Int32 = -108
    static let userCanceled: Int32 = -128
    static let notAvailable: Int32 = -25291
    static let authFailed: Int32 = -25293
    static let noSuchKeychain: Int32 = -25294
    static let duplicateItem: Int32 = -25299
    static let itemNotFound: Int32 = -25300
    static let interactionNotAllowed: Int32 = -25308
    static let decode: Int32 = -26275
    static let missingEntitlement: Int32 = -34018

    /// What `SecItemCopyMatching` found.
    enum ReadOutcome: Sendable, Hashable {
        case found
        case absent
    }

    /// The next call of a write: the SDK updates first, adds when there is nothing to update, and updates again
    /// when another writer added the item in between.
    enum WriteStep: Sendable, Hashable {
        case done
        case addItem
        case updateItem
    }

    static func readOutcome(_ status: Int32, item: String) throws(SecureStorageError) -> ReadOutcome {
        switch status {
        case success: return .found
        case itemNotFound: return .absent
        default: throw storageError(status, operation: "read \(item)")
        }
    }

    /// After `SecItemUpdate`.
    static func afterUpdate(_ status: Int32, item: String) throws(SecureStorageError) -> WriteStep {
        switch status {
        case success: return .done
        case itemNotFound: return .addItem
        default: throw storageError(status, operation: "update \(item)")
        }
    }

    /// After `SecItemAdd`.
    static func afterAdd(_ status: Int32, item: String) throws(SecureStorageError) -> WriteStep {
        switch status {
        case success: return .done
        case duplicateItem: return .updateItem
        default: throw storageError(status, operation: "add \(item)")
        }
    }

    /// After `SecItemDelete`: deleting an absent item is not an error.
    static func afterDelete(_ status: Int32, item: String) throws(SecureStorageError) {
        guard status != success, status != itemNotFound else { return }
        throw storageError(status, operation: "delete \(item)")
    }

    /// A failed keychain call as a `SecureStorageError`: undecodable data is *corrupted*; everything else is
    /// *unavailable* (try again later, and do not assume the item is gone).
    static func storageError(_ status: Int32, operation: String) -> SecureStorageError {
        let reason = "keychain \(operation): \(describe(status))"
        return status == decode ? .corrupted(reason) : .unavailable(reason)
    }

    /// A failed call about the key under `alias` as a `SecureAreaError`.
    static func secureAreaError(_ status: Int32, alias: String) -> SecureAreaError {
        let reason = "key \(alias): \(describe(status))"
        switch status {
        case itemNotFound: return .keyNotFound(alias)
        case decode: return .corrupted(reason)
        default: return .unavailable(reason)
        }
    }

    /// The constant's name and what it means here, for error messages.
    static func describe(_ status: Int32) -> String {
        let meaning: String = switch status {
        case success: "errSecSuccess"
        case param: "errSecParam: a parameter was not valid"
        case allocate: "errSecAllocate: out of memory"
        case userCanceled: "errSecUserCanceled: the user cancelled"
        case notAvailable: "errSecNotAvailable: no keychain is available"
        case authFailed: "errSecAuthFailed: user authentication failed"
        case noSuchKeychain: "errSecNoSuchKeychain: the keychain does not exist"
        case duplicateItem: "errSecDuplicateItem: the item already exists"
        case itemNotFound: "errSecItemNotFound: no such item"
        case interactionNotAllowed: "errSecInteractionNotAllowed: the keychain is locked (device locked since boot?)"
        case decode: "errSecDecode: the item does not decode"
        case missingEntitlement: "errSecMissingEntitlement: the app lacks the keychain entitlement"
        default: "OSStatus"
        }
        return "\(meaning) (\(status))"
    }
}
