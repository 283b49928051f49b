@testable import HoldfastSDK
import Testing

/// The Keychain seam's rules over `OSStatus` values (DESIGN.md §3: *absent* is not *unavailable*), tested here
/// because the Keychain itself is Apple-only.
struct KeychainStatusTests {
    /// Every status the SDK names, and a few it does not.
    static let statuses: [Int32] = [
        KeychainStatus.success, KeychainStatus.param, KeychainStatus.allocate, KeychainStatus.userCanceled,
        KeychainStatus.notAvailable, KeychainStatus.authFailed, KeychainStatus.noSuchKeychain, KeychainStatus.duplicateItem,
        KeychainStatus.itemNotFound, KeychainStatus.interactionNotAllowed, KeychainStatus.decode,
        KeychainStatus.missingEntitlement, -4, -25243, -25303, 1, Int32.min,
    ]

    @Test func namedStatusesHaveSecBaseValues() {
        #expect(KeychainStatus.success == 0)
        #expect(KeychainStatus.itemNotFound == -25300)
        #expect(KeychainStatus.interactionNotAllowed == -25308)
        #expect(KeychainStatus.duplicateItem == -25299)
        #expect(KeychainStatus.decode == -26275)
        #expect(KeychainStatus.missingEntitlement == -34018)
    }

    @Test func foundItemIsFound() throws {
        #expect(try KeychainStatus.readOutcome(KeychainStatus.success, item: "k") == .found)
    }

    @Test func itemNotFoundIsAbsent() throws {
        #expect(try KeychainStatus.readOutcome(KeychainStatus.itemNotFound, item: "k") == .absent)
    }

    /// A locked device's keychain is *unavailable*, never *absent*: tethering must not take it for a fresh install.
    @Test func interactionNotAllowedIsUnavailableNotAbsent() {
        #expect(throws: SecureStorageError.self) { try KeychainStatus.readOutcome(KeychainStatus.interactionNotAllowed, item: "k") }
        let error = KeychainStatus.storageError(KeychainStatus.interactionNotAllowed, operation: "read k")
        guard case .unavailable(let reason) = error else { Issue.record("\(error)"); return }
        #expect(reason.contains("errSecInteractionNotAllowed") && reason.contains("-25308"))
    }

    /// Only `errSecItemNotFound` reads as absent; only `errSecSuccess` as found.
    @Test func noOtherStatusReadsAsAbsent() {
        for status in Self.statuses where status != KeychainStatus.success && status != KeychainStatus.itemNotFound {
            #expect(throws: SecureStorageError.self, "\(status)") { try KeychainStatus.readOutcome(status, item: "k") }
        }
    }

    @Test func undecodableItemIsCorrupted() {
        #expect(KeychainStatus.storageError(KeychainStatus.decode, operation: "read k").code == "SECURE_STORAGE_CORRUPTED")
        for status in Self.statuses where status != KeychainStatus.decode {
            #expect(KeychainStatus.storageError(status, operation: "x").code == "SECURE_STORAGE_UNAVAILABLE", "\(status)")
        }
    }

    @Test func writeUpdatesThenAddsThenUpdatesAgain() throws {
        #expect(try KeychainStatus.afterUpdate(KeychainStatus.success, item: "k") == .done)
        #expect(try KeychainStatus.afterUpdate(KeychainStatus.itemNotFound, item: "k") == .addItem)
        #expect(try KeychainStatus.afterAdd(KeychainStatus.success, item: "k") == .done)
        // Another writer added the item between our update and our add.
        #expect(try KeychainStatus.afterAdd(KeychainStatus.duplicateItem, item: "k") == .updateItem)
    }

    @Test func lockedKeychainFailsWritesAsUnavailable() {
        #expect(throws: SecureStorageError.unavailable(
            "keychain update k: errSecInteractionNotAllowed: the keychain is locked (device locked since boot?) (-25308)")) {
            try KeychainStatus.afterUpdate(KeychainStatus.interactionNotAllowed, item: "k")
        }
        #expect(throws: SecureStorageError.self) { try KeychainStatus.afterAdd(KeychainStatus.interactionNotAllowed, item: "k") }
        #expect(throws: SecureStorageError.self) { try KeychainStatus.afterAdd(KeychainStatus.itemNotFound, item: "k") }
    }

    @Test func deletingAnAbsentItemIsFine() throws {
        try KeychainStatus.afterDelete(KeychainStatus.success, item: "k")
        try KeychainStatus.afterDelete(KeychainStatus.itemNotFound, item: "k")
        #expect(throws: SecureStorageError.self) { try KeychainStatus.afterDelete(KeychainStatus.interactionNotAllowed, item: "k") }
    }

    @Test func secureAreaStatuses() {
        #expect(KeychainStatus.secureAreaError(KeychainStatus.itemNotFound, alias: "a") == .keyNotFound("a"))
        #expect(KeychainStatus.secureAreaError(KeychainStatus.decode, alias: "a").code == "SECURE_AREA_CORRUPTED")
        for status in [KeychainStatus.interactionNotAllowed, KeychainStatus.authFailed, KeychainStatus.userCanceled, -1] {
            #expect(KeychainStatus.secureAreaError(status, alias: "a").code == "SECURE_AREA_UNAVAILABLE", "\(status)")
        }
    }

    /// The enclave's blob lives in `SecureStorage`: its failures are the key's, with the same meaning.
    @Test func storageFailuresBecomeTheKeysFailures() {
        #expect(SecureAreaError(SecureStorageError.unavailable("locked")) == .unavailable("locked"))
        #expect(SecureAreaError(SecureStorageError.corrupted("bad")) == .corrupted("bad"))
    }

    @Test func unknownStatusIsDescribedByItsNumber() {
        #expect(KeychainStatus.describe(-4) == "OSStatus (-4)")
    }
}

/// Where the Apple seams keep things (`KeychainItemName`).
struct KeychainItemNameTests {
    @Test func storageItemsAreAccountsOfOneService() {
        #expect(KeychainItemName.storageItem("holdfast.tethering.v1.app-1")
            == KeychainItemName(service: "holdfast-sdk", account: "holdfast.tethering.v1.app-1"))
        #expect(KeychainItemName.storageItem("k", service: "com.example.wallet").service == "com.example.wallet")
    }

    /// An enclave blob is never read as a software key (`SoftwareSecureArea` keeps `secure-area.key.<alias>`), nor
    /// as another alias's blob.
    @Test func enclaveBlobsHaveTheirOwnNames() {
        let alias = "holdfast.instance.app-1.a"
        #expect(KeychainItemName.secureEnclaveKeyBlob(alias: alias) == "secure-area.secure-enclave-key.holdfast.instance.app-1.a")
        #expect(KeychainItemName.secureEnclaveKeyBlob(alias: alias) != "secure-area.key." + alias)
        #expect(KeychainItemName.secureEnclaveKeyBlob(alias: "a") != KeychainItemName.secureEnclaveKeyBlob(alias: "b"))
    }
}

/// The access control of Secure Enclave keys (`SecureEnclaveKeyAccess`).
struct SecureEnclaveKeyAccessTests {
    @Test func everyKeyIsAnEnclaveSigningKey() {
        for access in SecureEnclaveKeyAccess.allCases {
            #expect(access.flags.first == .privateKeyUsage, "\(access)")
        }
    }

    @Test func tetheringKeysSignWithoutAPromptAfterTheFirstUnlock() {
        #expect(SecureEnclaveKeyAccess.noUserAuthentication.flags == [.privateKeyUsage])
        #expect(SecureEnclaveKeyAccess.noUserAuthentication.protection == .afterFirstUnlockThisDeviceOnly)
    }

    @Test func userAuthenticatedKeysNeedTheirFlagAndAnUnlockedDevice() {
        #expect(SecureEnclaveKeyAccess.biometryCurrentSet.flags == [.privateKeyUsage, .biometryCurrentSet])
        #expect(SecureEnclaveKeyAccess.userPresence.flags == [.privateKeyUsage, .userPresence])
        #expect(SecureEnclaveKeyAccess.biometryCurrentSet.protection == .whenUnlockedThisDeviceOnly)
        #expect(SecureEnclaveKeyAccess.userPresence.protection == .whenUnlockedThisDeviceOnly)
    }

    @Test func flagsCombineAsSecAccessControlCreateFlags() {
        #expect(AccessControlFlag.combined([.privateKeyUsage]) == 1 << 30)
        #expect(AccessControlFlag.combined(SecureEnclaveKeyAccess.biometryCurrentSet.flags) == 1 << 30 | 1 << 3)
        #expect(AccessControlFlag.combined(SecureEnclaveKeyAccess.userPresence.flags) == 1 << 30 | 1)
    }

    @Test func storedItemsStayOnTheDeviceAndReadAfterTheFirstUnlock() {
        #expect(KeychainProtection.secureStorage == .afterFirstUnlockThisDeviceOnly)
    }
}
