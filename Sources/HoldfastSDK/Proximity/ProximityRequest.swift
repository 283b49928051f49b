import Foundation
import HoldfastProtocol
import OpenID4VP

/// What a reader asks in person (docs/sdk.md "Holder: proximity presentation"), in the shapes online presentation
/// shows (`MobileCredentialRequest`, `MatchedCredentials`), so that one consent view serves both: each docType of the
/// reader's DeviceRequest (ISO/IEC 18013-5 §8.3.2.1.2.1) with its elements and their `intentToRetain`, the stored
/// credentials that hold every element asked, and who asks.
public struct ProximityRequest: Sendable, Hashable {
    /// One per DocRequest; `id` is the docType.
    public var requests: [MobileCredentialRequest]
    public var matchedCredentials: [MatchedCredentials]
    /// `.certificate` when every DocRequest's `readerAuth` (§9.1.4) verifies over this session's transcript and its
    /// chain reaches a certificate added with `addTrustedReaderCertificates`; `.none` otherwise.
    public var verifiedBy: VerifierTrust
    /// The reader certificate's first dNSName (or its subject) when `verifiedBy` is `.certificate`; nil otherwise —
    /// an unanchored certificate does not get to name its holder.
    public var readerName: String?
    /// What a stored credential must hold to answer each request.
    public var requirements: PresentationRequirements

    /// When no stored credential answers any of the requests: the `CREDENTIAL_NOT_FOUND` error naming what is
    /// missing; nil when some request has a match. The app then answers `sendResponse(credentialIds: [])` (the
    /// reader learns which docTypes are not returned, §8.3.2.1.2.2 `documentErrors`) or `declineRequest()`.
    public var credentialNotFound: HoldfastError? {
        matchedCredentials.credentialNotFound(asker: readerName ?? "the reader")
    }
}

/// What happened in a proximity presentation session (`ProximityPresentationSession.events`).
public enum ProximityPresentationEvent: Sendable, Hashable {
    /// The device engagement is ready to be shown: `qrCode` is its `mdoc:` text (ISO/IEC 18013-5 §8.2.2.3).
    case engagementReady(qrCode: String)
    /// A reader connected over the transport.
    case readerConnected
    /// A request arrived; answer it with `sendResponse(credentialIds:)` or `declineRequest()`.
    case requestReceived(ProximityRequest)
    /// The answer to the last request was sent.
    case responseSent
    /// The session ended; nothing more is sent or received.
    case terminated(ProximityTerminationReason)
}

/// Why a proximity presentation session ended.
public enum ProximityTerminationReason: Sendable, Hashable {
    /// The reader ended it (SessionData status 20, ISO/IEC 18013-5 §9.1.1.4).
    case readerEnded
    /// The connection closed without a termination message.
    case connectionClosed
    /// The app called `terminate()`.
    case terminatedByHolder
    /// `requireTrustedReader` was set and the reader was not `.certificate`: nothing was disclosed, the session was
    /// ended with status 20.
    case readerUntrusted
    /// A message did not decrypt (wrong key, counter or tag, a replay): status 10 was sent (§9.1.1.5).
    case sessionEncryptionFailed
    /// A message was not CBOR of the session's structures: status 11 was sent.
    case decodingFailed
    /// The transport failed.
    case transportFailed(String)
}
