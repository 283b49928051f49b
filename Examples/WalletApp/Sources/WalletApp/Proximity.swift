import Foundation
import HoldfastSDK

// docs/sdk.md "Holder: proximity presentation" and "Reader".

/// The one consent view of online and in-person presentation: each request's matching credentials, the elements
/// each would show (with `intentToRetain`), a warning for an unknown status, and the person's choice — nil to decline.
func chooseCredentials(_ matches: [MatchedCredentials]) -> [String]? {
    // guide: consent-view
    var chosen: [String] = []
    for match in matches {                       // only credentials that hold what the request requires
        for id in match.matchedMobileCredentials.map(\.id) {
            show(match.claims[id] ?? [])         // the requested elements it holds: nameSpace, elementIdentifier, intentToRetain
            if match.unknownStatus.contains(id) { showStatusWarning(id) }
        }
        chosen += match.matchedMobileCredentials.prefix(1).map(\.id)   // the person's choice
    }
    return chosen.isEmpty ? nil : chosen         // nil: nothing to show, or the person said no
    // guide: end
}

/// Starts an in-person presentation: the engagement to show as a QR code, then the reader's requests.
func startInPersonPresentation(_ holder: MobileCredentialHolder) async throws(HoldfastError) -> ProximityPresentationSession {
    // guide: proximity
    let session = try await holder.createProximityPresentationSession(
        transport: LoopbackMDocTransport())      // BLEPeripheralMDocTransport() on an iPhone; loopback in tests and demos
    showQRCode(session.qrCodeImage, text: session.qrCode)   // "mdoc:…": the reader scans it
    // guide: end
    return session
}

/// Answers each request of the reader through the same consent view as online presentation, until the session ends.
func answerInPerson(_ session: ProximityPresentationSession) async {
    // guide: proximity-requests
    for await event in session.events {
        switch event {
        case .requestReceived(let request):      // the online shapes: request.requests, request.matchedCredentials
            if request.verifiedBy != .certificate { showWarning(request.readerName) }   // requireTrustedReader: true refuses
            if let chosen = chooseCredentials(request.matchedCredentials) {
                try? await session.sendResponse(credentialIds: chosen)   // only the requested elements, device-signed
            } else {
                try? await session.declineRequest()
            }
        case .terminated(let reason):            // .readerEnded, .connectionClosed, .sessionEncryptionFailed …
            log("in-person presentation ended:", reason)
        case .engagementReady, .readerConnected, .responseSent:
            break
        }
    }
    // guide: end
}

/// The verifier app's side: reads the holder's engagement and verifies what it shows, with the tenant verifier's checks.
func readInPerson(iacaPEM: String, statusLists: StatusListCache, scannedQRCode: String) async throws(HoldfastError) -> PresentationResult {
    // guide: reader
    let reader = try MobileCredentialReader(trustedIACAPEMs: [iacaPEM], statusLists: statusLists)   // nil: offline
    let result = try await reader.read(
        engagement: scannedQRCode,               // "mdoc:…"
        request: [ProximityReadRequest(docType: "org.iso.18013.5.1.mDL",
                                       elements: ["org.iso.18013.5.1": ["family_name", "given_name"]])],
        over: LoopbackReaderTransport())         // the reader's transport to the engagement's mdoc
    if result.status != .verified {
        showFailures(result.failures ?? [])      // the tenant verifier's codes: DIGEST_MISMATCH, STATUS_REVOKED …
    }
    // guide: end
    return result
}

func showQRCode(_ image: QRCode?, text: String) { log("show the QR code", text, image.map { "\($0.size)×\($0.size) modules" } ?? "") }
func showFailures(_ failures: [PresentationResult.Failure]) { log("refused", failures.map(\.code.rawValue)) }
