import Foundation
import HoldfastSDK

// docs/sdk.md "Digital Credentials API".

/// Answers a request the platform handed the app as a Digital Credentials API provider (Android Credential Manager,
/// iOS's document provider extension): shows who asks and what, then returns the answer the app hands back to the
/// platform — the chosen credentials, or a decline.
func answerDigitalCredentialsRequest(_ holder: MobileCredentialHolder, requestJSON: Data, callingOrigin: String)
    async throws(HoldfastError) -> Data {
    // guide: digital-credentials
    let session = try await holder.createDigitalCredentialsPresentationSession(
        request: requestJSON,                    // one {protocol, data}, or the whole digital object
        origin: callingOrigin)                   // the calling page's origin, as the platform reports it
    showAsker(session.request.verifierName, session.request.verifiedBy)   // .certificate, .domain or .none
    guard session.credentialNotFound == nil, askConsent(session.matchedCredentials) else {
        return try await session.declineRequest()   // an answer too: the page learns "no", nothing more
    }
    let chosen = session.matchedCredentials.compactMap { $0.matchedMobileCredentials.first?.id }
    return try await session.sendResponse(credentialIds: chosen)   // {protocol, data}: hand it back to the platform
    // guide: end
}

func showAsker(_ name: String?, _ trust: VerifierTrust) { log("asked by", "\(name ?? "unknown") (\(trust.rawValue))") }
func askConsent(_ matches: [MatchedCredentials]) -> Bool {
    log("asks for", matches.map(\.request.docType))
    return true
}
