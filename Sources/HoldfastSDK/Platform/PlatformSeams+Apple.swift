#if canImport(CryptoKit) && canImport(Security) && canImport(DeviceCheck) && canImport(LocalAuthentication)
import Foundation

extension PlatformSeams {
    /// The Apple seams (DESIGN.md §3), assembled as `linux(stateDirectory:)` assembles the Linux ones: state in the
    /// Keychain (`KeychainSecureStorage`), the instance key in the Secure Enclave (`SecureEnclaveSecureArea`, its blob
    /// in the same Keychain service), App Attest (`AppAttestPlatformAttestation`), LocalAuthentication, the device's
    /// model identifier, `URLSession`, the system clock, on iOS the jailbreak traces (`HeuristicDeviceIntegrity`), and
    /// tethering on the in-process timer — or, given the app's `backgroundRefresh`, also on the background refresh the
    /// app requests from the system (`BackgroundRefreshTetheringScheduler`; docs/sdk.md "Holder: automatic tethering").
    ///
    /// Without a Secure Enclave (the Simulator) key creation fails with `SECURE_AREA_UNAVAILABLE`; an app that wants
    /// to run there assembles its own seams with `SoftwareSecureArea(storage: KeychainSecureStorage())`.
    ///
    /// - Parameters:
    ///   - keychainService: the `kSecAttrService` of every item the SDK keeps.
    ///   - accessGroup: a keychain access group shared with the app's extensions, if any.
    ///   - keyAccess: who must be present for the instance key to sign; tethering signs in the background, so
    ///     `noUserAuthentication` unless the app decides otherwise.
    ///   - backgroundRefresh: the app's background refresh request (on iOS, its `BGTaskScheduler` task), so that the
    ///     system may wake a suspended app for a due renewal; without it tethering runs while the app does.
    public static func apple(keychainService: String = KeychainItemName.defaultService, accessGroup: String? = nil,
                             keyAccess: SecureEnclaveKeyAccess = .noUserAuthentication,
                             backgroundRefresh: (any BackgroundRefreshRequester)? = nil) -> PlatformSeams {
        let storage = KeychainSecureStorage(service: keychainService, accessGroup: accessGroup)
        #if os(iOS)
        let integrity: any DeviceIntegrity = HeuristicDeviceIntegrity.iOS()
        #else
        let integrity: any DeviceIntegrity = ScriptedDeviceIntegrity()
        #endif
        let scheduler: any TetheringScheduler = backgroundRefresh.map { BackgroundRefreshTetheringScheduler(requester: $0) }
            ?? TimerTetheringScheduler()
        return PlatformSeams(secureStorage: storage, secureArea: SecureEnclaveSecureArea(storage: storage, keyAccess: keyAccess),
                             platformAttestation: AppAttestPlatformAttestation(), deviceInfo: .current,
                             userVerification: LocalAuthenticationUserVerification(), deviceIntegrity: integrity,
                             tetheringScheduler: scheduler)
    }
}
#endif
