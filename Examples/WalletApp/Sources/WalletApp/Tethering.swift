import Foundation
import HoldfastSDK

// docs/sdk.md "Tethering". The code between a `// guide: NAME` line and `// guide: end` is a snippet of the guide,
// the same text character for character (DocumentationSnippetTests).

/// The platform's seams: the Apple ones on an iPhone or a Mac, the Linux ones on a server, in CI or a simulated device.
func platformSeams(stateDirectory: URL) -> PlatformSeams {
    // guide: seams
    #if canImport(CryptoKit) && canImport(Security) && canImport(DeviceCheck) && canImport(LocalAuthentication)
    let seams = PlatformSeams.apple()   // Secure Enclave, Keychain, App Attest, LocalAuthentication
    #else
    let seams = PlatformSeams.linux(stateDirectory: stateDirectory)   // software keys and state in a folder
    #endif
    // guide: end
    return seams
}

/// A holder tethered to its tenant: initialized, registered, holding a license.
func tetheredHolder(seams: PlatformSeams, tenantHost: String, applicationId: String) async throws(HoldfastError)
    -> MobileCredentialHolder {
    // guide: tethering
    let holder = MobileCredentialHolder(seams: seams)
    try await holder.initialize(platformConfiguration: PlatformConfiguration(
        tenantHost: tenantHost, applicationId: applicationId))   // registers and renews by itself
    let registration = try await holder.registerDevice()   // optional: idempotent, shares the automatic registration
    let license = try await holder.license()               // renewed ahead of expiry, used offline until it expires
    // guide: end
    Output.step("tethering", ["registration": "\(registration)", "licenseExpiresAt": license.expiresAt.ISO8601Format()])
    return holder
}

/// What tethering does by itself, as it happens (the task ends when the app cancels it).
func followTethering(of holder: MobileCredentialHolder) -> Task<Void, Never> {
    // guide: tethering-events
    let events = Task {
        for await event in holder.tetheringEvents {
            switch event {
            case .registered(let instanceId, let pending): log("registered \(instanceId)", pending ? "(awaiting approval)" : "")
            case .renewed(let license): log("license until \(license.expiresAt)")
            case .renewalFailed(let error), .registrationFailed(let error): log("will retry: \(error.code)")
            case .revoked(let instanceId): log("\(instanceId) was revoked: register again to use tethering")
            }
        }
    }
    // guide: end
    return events
}

/// An app that accepts only a platform attestation (no assertion fallback): on a device that cannot attest — every
/// Linux device — registration fails with ATTESTATION_UNAVAILABLE and nothing is sent.
func registerWithAttestationOnly(seams: PlatformSeams, tenantHost: String, applicationId: String) async throws(HoldfastError)
    -> Bool {
    let holder = MobileCredentialHolder(seams: seams)
    // guide: attestation-only
    var configuration = PlatformConfiguration(tenantHost: tenantHost, applicationId: applicationId)
    configuration.allowsAssertionFallback = false   // attestation or nothing
    try await holder.initialize(platformConfiguration: configuration)
    do {
        _ = try await holder.registerDevice()
    } catch where error.code == .attestationUnavailable {
        return false                                // this device cannot attest: tell the user, do not retry
    }
    // guide: end
    return true
}

/// A holder with no tenant: it claims only offers that need no wallet attestation.
func untetheredClaim(seams: PlatformSeams, scannedURI: String) async throws(HoldfastError) -> [MobileCredentialMetadata] {
    // guide: untethered
    let holder = MobileCredentialHolder(seams: seams)
    await holder.initialize()                                       // untethered
    let offer = try await holder.retrieveCredentialOffer(uri: scannedURI)
    guard !offer.requiresClientAttestation else { return [] }      // else: WALLET_ATTESTATION_UNAVAILABLE
    let claimed = try await holder.claimCredentials(offer: offer)
    // guide: end
    return claimed
}
