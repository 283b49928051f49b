import Foundation
import HoldfastSDK

// docs/sdk.md "Presentation".

/// Trusts the verifier's CA, reads its request, shows what it asks, and presents the first credential that holds it.
/// Returns the redirect the verifier sent, if any.
func present(_ holder: MobileCredentialHolder, verifierCAPEM: String, scannedURI: String) async throws(HoldfastError)
    -> String? {
    // guide: presentation
    _ = try await holder.addTrustedVerifierCertificates([verifierCAPEM])
    let session = try await holder.createOnlinePresentationSession(
        authorisationRequestUri: scannedURI,                     // request_uri= or request=
        unknownStatusPolicy: .allowIfCheckedWithin(seconds: 86_400))   // or .exclude, or .allowWithWarning (the default)
    switch session.request.verifiedBy {          // how much was established about the verifier
    case .certificate: break                     // its chain reaches a trusted verifier certificate
    case .domain, .none: showWarning(session.request.verifierName)   // not anchored (requireTrustedVerifier: true refuses)
    }
    if let notFound = session.credentialNotFound {   // CREDENTIAL_NOT_FOUND: nothing stored holds what is asked
        showNothingToPresent(notFound.missing ?? [])   // .docType, .element(docType:nameSpace:elementIdentifier:) …
        try await session.declineRequest()           // the verifier is told (access_denied); else it waits
        return nil
    }
    guard let chosen = chooseCredentials(session.matchedCredentials) else {   // the consent view below
        try await session.declineRequest()
        return nil
    }
    let redirect = try await session.sendResponse(credentialIds: chosen)
    // guide: end
    return redirect
}

/// Redirects: `autoRedirect` (true by default) opens the verifier's redirect with the platform's URL opener when the
/// verifier was trusted to send it (https, verified by .certificate or .domain) or the app allows its scheme.
func allowAppRedirects(_ holder: MobileCredentialHolder) async {
    // guide: redirects
    await holder.presentations.setOptions(PresentationOptions(allowedRedirectSchemes: ["myapp"]))   // myapp://… opened too
    // guide: end
}

func showWarning(_ verifier: String?) { log("unverified verifier", verifier ?? "") }
func show(_ claims: [MatchedClaim]) { log("asks for", claims.map { "\($0.nameSpace)/\($0.elementIdentifier)" }) }
func showStatusWarning(_ id: String) { log("status unknown for", id) }
func showNothingToPresent(_ missing: [MissingItem]) { log("no stored credential holds", missing.map(\.description)) }
