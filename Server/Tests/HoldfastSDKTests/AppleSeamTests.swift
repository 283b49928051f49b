#if canImport(Security) && canImport(LocalAuthentication) && canImport(Darwin)
import DeviceCheck
import Foundation
import LocalAuthentication
import Security
@testable import HoldfastSDK
import Testing

/// On Apple platforms only (the `apple.yml` workflow): the constants the shared seam logic mirrors are the
/// frameworks' own, and the Apple seams assemble. The Keychain and the Secure Enclave themselves need a signed
/// app with entitlements, which `swift test` is not, so they are not exercised here.
struct AppleSeamTests {
    @Test func keychainStatusesAreSecurityFrameworkValues() {
        #expect(KeychainStatus.success == errSecSuccess)
        #expect(KeychainStatus.param == errSecParam)
        #expect(KeychainStatus.allocate == errSecAllocate)
        #expect(KeychainStatus.userCanceled == errSecUserCanceled)
        #expect(KeychainStatus.notAvailable == errSecNotAvailable)
        #expect(KeychainStatus.authFailed == errSecAuthFailed)
        #expect(KeychainStatus.noSuchKeychain == errSecNoSuchKeychain)
        #expect(KeychainStatus.duplicateItem == errSecDuplicateItem)
        #expect(KeychainStatus.itemNotFound == errSecItemNotFound)
        #expect(KeychainStatus.interactionNotAllowed == errSecInteractionNotAllowed)
        #expect(KeychainStatus.decode == errSecDecode)
        #expect(KeychainStatus.missingEntitlement == errSecMissingEntitlement)
    }

    @Test func accessControlFlagsAreSecurityFrameworkValues() {
        for flag in AccessControlFlag.allCases {
            #expect(flag.rawValue == UInt(flag.securityValue.rawValue), "\(flag)")
        }
    }

    @Test func localAuthenticationCodesAreLAErrorValues() {
        #expect(LocalAuthenticationCode.authenticationFailed == LAError.Code.authenticationFailed.rawValue)
        #expect(LocalAuthenticationCode.userCancel == LAError.Code.userCancel.rawValue)
        #expect(LocalAuthenticationCode.userFallback == LAError.Code.userFallback.rawValue)
        #expect(LocalAuthenticationCode.systemCancel == LAError.Code.systemCancel.rawValue)
        #expect(LocalAuthenticationCode.passcodeNotSet == LAError.Code.passcodeNotSet.rawValue)
        #expect(LocalAuthenticationCode.biometryNotAvailable == LAError.Code.biometryNotAvailable.rawValue)
        #expect(LocalAuthenticationCode.biometryNotEnrolled == LAError.Code.biometryNotEnrolled.rawValue)
        #expect(LocalAuthenticationCode.biometryLockout == LAError.Code.biometryLockout.rawValue)
        #expect(LocalAuthenticationCode.appCancel == LAError.Code.appCancel.rawValue)
        #expect(LocalAuthenticationCode.invalidContext == LAError.Code.invalidContext.rawValue)
        #expect(LocalAuthenticationCode.notInteractive == LAError.Code.notInteractive.rawValue)
    }

    @Test func appAttestCodesAreDCErrorValues() {
        #expect(AppAttestErrorCode.unknownSystemFailure == DCError.Code.unknownSystemFailure.rawValue)
        #expect(AppAttestErrorCode.featureUnsupported == DCError.Code.featureUnsupported.rawValue)
        #expect(AppAttestErrorCode.invalidInput == DCError.Code.invalidInput.rawValue)
        #expect(AppAttestErrorCode.invalidKey == DCError.Code.invalidKey.rawValue)
        #expect(AppAttestErrorCode.serverUnavailable == DCError.Code.serverUnavailable.rawValue)
    }

    @Test func deviceInfoNamesTheModel() {
        let info = DeviceInfo.current
        #expect(info.deviceMake == "Apple")
        #expect(!info.deviceModel.isEmpty && info.deviceModel != "apple-device", "\(info.deviceModel)")
    }

    @Test func appleSeamsAssemble() {
        let seams = PlatformSeams.apple()
        #expect(seams.secureStorage is KeychainSecureStorage)
        #expect(seams.secureArea is SecureEnclaveSecureArea)
        #expect(seams.platformAttestation is AppAttestPlatformAttestation)
        #expect(seams.userVerification is LocalAuthenticationUserVerification)
    }
}
#endif
