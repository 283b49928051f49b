import Foundation
import HoldfastSDK

// docs/sdk.md "Credentials", "The offline limit" and "Status".

/// Trusts the issuer's IACA, claims an offer, and opens the credential it brought.
func claim(_ holder: MobileCredentialHolder, iacaPEM: String, scannedURI: String, codeFromSMS: String?)
    async throws(HoldfastError) -> MobileCredential {
    // guide: claiming
    _ = try await holder.addTrustedIssuerCertificates([iacaPEM])             // the issuer's IACA
    let offer = try await holder.retrieveCredentialOffer(uri: scannedURI)     // shown before the user consents
    let claimed = try await holder.claimCredentials(offer: offer, transactionCode: codeFromSMS)
    let credential = try await holder.getCredential(credentialId: claimed[0].id)   // claims + verificationResult
    // guide: end
    return credential
}

/// A credential, or nil when the device has been offline longer than the tenant allows.
func openCredential(_ holder: MobileCredentialHolder, id: String) async throws(HoldfastError) -> MobileCredential? {
    // guide: offline-limit
    do {
        return try await holder.getCredential(credentialId: id)
    } catch where error.code == .licenseExpired {   // typed throws: `error` is a HoldfastError
        return nil                                  // offline for longer than the tenant allows: ask to go online
    }
    // guide: end
}

/// A credential's status as last checked, then every status list fetched now (before going offline).
func checkStatus(_ holder: MobileCredentialHolder, id: String) async throws(HoldfastError) -> CredentialStatus {
    // guide: status
    let credential = try await holder.getCredential(credentialId: id)   // verificationResult .failure(.statusRevoked) …
    log("status:", credential.status ?? .valid, "checked:", credential.statusCheckedAt.map { "\($0)" } ?? "never online")
    let lists = try await holder.refreshStatusLists()                   // fetch every list now, before going offline
    // guide: end
    Output.step("status", ["status": "\(credential.status ?? .valid)", "refreshed": lists.refreshed.count,
                           "failed": lists.failed.count])
    return credential.status ?? .valid
}
