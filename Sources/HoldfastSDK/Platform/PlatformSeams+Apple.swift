#if canImport(CryptoKit) && canImport(Security) && canImport(DeviceCheck) && canImport(LocalAuthentication)
import Foundation

extension PlatformSeams {
    /// The Apple seams (DESIGN.md §3), assembled as `linux(stateDirectory:)` assembles the Linux ones: state in the
    /// Keychain (`KeychainSecureStorage`), the instance key in the Secure Enclave (`SecureEnclaveSecureArea`, its blob
    /// in the same Keychain service), App Attest (`AppAttestPlatformAttestation`), LocalAuthentication, the device's
    /// model identifier, `URLSession`, the system clock, and on iOS the jailbreak traces (`HeuristicDeviceIntegrity`)
    /// and a background refresh task for tethering (`BackgroundTaskTetheringScheduler`, whose launch handler the app
    /// registers: `(seams.tetheringScheduler as? BackgroundTaskTetheringScheduler)?.registerLaunchHandler()`).
    ///
    /// Without a Secure Enclave (the Simulator) key creation fails with `SECURE_AREA_UNAVAILABLE`; an app that wants
    /// to run there assembles its own seams with `SoftwareSecureArea(storage: KeychainSecureStorage())`.
    ///
    /// - Parameters:
    ///   - keychainService: the `kSecAttrService` of every item the SDK keeps.
    ///   - accessGroup: a keychain access group shared with the app's extensions, if any.
    ///   - keyAccess: who must be present for the instance key to sign; tethering signs in the background, so
    ///     `noUserAuthentication` unless the app decides otherwise.
    public static func apple(keychainService: String = KeychainItemName.defaultService, accessGroup: String? = nil,
                             keyAccess: SecureEnclaveKeyAccess = .noUserAuthentication) -> PlatformSeams {
        let storage = KeychainSecureStorage(service: keychainService, accessGroup: accessGroup)
        #if os(iOS)
        let integrity: any DeviceIntegrity = HeuristicDeviceIntegrity.iOS()
        let scheduler: any TetheringScheduler = BackgroundTaskTetheringScheduler()
        #else
        let integrity: any DeviceIntegrity = ScriptedDeviceIntegrity()
        let scheduler: any TetheringScheduler = TimerTetheringScheduler()
        #endif
        return PlatformSeams(secureStorage: storage, secureArea: SecureEnclaveSecureArea(storage: storage, keyAccess: keyAccess),
                             platformAttestation: AppAttestPlatformAttestation(), deviceInfo: .current,
                             userVerification: LocalAuthenticationUserVerification(), deviceIntegrity: integrity,
                             tetheringScheduler: scheduler)
    }
}
#endif
