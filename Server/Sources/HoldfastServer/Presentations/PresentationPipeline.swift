import Foundation
import HoldfastAdmin
import HoldfastProtocol
import JOSE
import MDoc
import OpenID4VP
import PresentationVerification

/// The one path of an answer to a presentation session (docs/server-api.md "Verifier", "Digital Credentials API"), whatever
/// protocol carried it — OpenID4VP 1.0 `direct_post.jwt` (§8.3), ISO/IEC TS 18013-7:2024 Annex B, OpenID4VP 1.0
/// Appendix A over the W3C Digital Credentials API, ISO/IEC TS 18013-7 Annex C: the open session is found; the
/// protocol opens the answer (`Reading`: its decryption and handover) and gives the `vp_token` with the
/// SessionTranscript(s) it is checked over (`Answer`), or the result the answer already is; the presentations are
/// verified (`PresentationResponseVerifier` over the shared `DeviceResponseVerification`, the checks the SDK's
/// proximity reader makes) with the IACAs the tenant trusts and the status lists (`PresentationStatusCheck`); and the
/// result is stored as the session's single answer, with the `response_code` that reads it once.
struct PresentationPipeline: Sendable {
    let store: PresentationSessionStore
    let issuerCertificates: IssuerCertificateStore
    let trustedIssuers: PresentationTrustedIssuerService
    let status: PresentationStatusCheck
    let random: any RandomSource

    /// What a protocol gives the verification: the `vp_token` (the protocol's shape: `protocol`), the requirements
    /// of what the session asked, the transcripts device authentication is checked over, and failures the protocol
    /// found before (the 2024 handover's nonce).
    struct Answer: Sendable {
        let `protocol`: PresentationProtocol.Known
        let requirements: PresentationRequirements
        let transcripts: [SessionTranscript]
        let vpToken: JSONValue?
        var failures: [PresentationResult.Failure] = []
        /// With several candidate transcripts (the origins a Digital Credentials API page may be served from), what a
        /// device signature that verifies under none of them is reported as instead of `DEVICE_SIGNATURE_INVALID`.
        var noTranscriptRefusal: PresentationResult.Failure?
    }

    /// What the protocol made of the answer it opened.
    enum Reading: Sendable {
        /// Presentations to verify.
        case verify(Answer)
        /// A result without verification: the person declined, or the answer failed before any presentation.
        case concluded(PresentationResult)
    }

    /// The session an answer ended, and the `response_code` that reads its result, if one was drawn.
    struct Answered: Sendable {
        let session: PresentationSessionStore.Session
        let responseCode: String?
    }

    /// Takes one answer for the session `id`: a session that is not the protocol's (`accepts`), answered or expired is
    /// `invalid_request`, as is whatever `open` throws (the session stays as it was); otherwise the session ends with
    /// the result, and a `response_code` when `withResponseCode` says so.
    func answer(sessionID id: String, now: Date, accepts: (PresentationSessionStore.Session) -> Bool,
                withResponseCode: (PresentationSessionStore.Session) -> Bool,
                open: (PresentationSessionStore.Session) async throws -> Reading) async throws -> Answered {
        guard let session = try await store.session(id: id), accepts(session) else { throw OAuthError.invalidRequest("unknown session") }
        guard session.answeredAt == nil else { throw OAuthError.invalidRequest("the session was answered already") }
        guard session.expiresAt > now else { throw OAuthError.invalidRequest("the session has expired") }
        let result: PresentationResult
        switch try await open(session) {
        case .concluded(let concluded): result = concluded
        case .verify(let answer): result = try await verify(answer, at: now)
        }
        let responseCode = withResponseCode(session) ? Base64URL.encode(random.bytes(24)) : nil
        guard try await store.answer(id: id, result: result, responseCode: responseCode, answeredAt: now) else {
            throw OAuthError.invalidRequest("the session was answered already")
        }
        return Answered(session: session, responseCode: responseCode)
    }

    /// The verification of `answer` at `now`.
    func verify(_ answer: Answer, at now: Date) async throws -> PresentationResult {
        let verifier = PresentationResponseVerifier(protocol: answer.protocol, requirements: answer.requirements,
                                                    transcripts: answer.transcripts, trust: try await issuerTrust(now: now))
        let status = self.status
        var result = try await verifier.verify(vpToken: answer.vpToken, at: now, failures: answer.failures) { reference, iaca in
            try await status.failure(reference, issuer: iaca, now: now)
        }
        if let refusal = answer.noTranscriptRefusal {
            result.failures = result.failures?.map { failure in
                guard failure.code == PresentationFailureCode.deviceSignatureInvalid else { return failure }
                var renamed = failure
                renamed.code = refusal.code
                renamed.reason = refusal.reason
                return renamed
            }
        }
        return result
    }

    /// The IACAs a presented credential may chain to: the tenant's own and the trusted issuers added beside them
    /// (docs/server-api.md "Verifier"), for every kind of answer.
    func issuerTrust(now: Date) async throws -> IssuerTrust {
        IssuerTrust(iacas: await issuerCertificates.current(now: now).iacas.map(\.certificate) + (try await trustedIssuers.certificates()))
    }

    /// A result that failed on one check before any presentation.
    static func failed(_ code: PresentationFailureCode, _ reason: String) -> PresentationResult {
        PresentationResult(status: .failed, failures: [.init(code: code, reason: reason)])
    }
}

extension PresentationSessionService.Settings {
    /// What a session asked, as the wallet saw it, for an answer of `protocol`: OpenID4VP 1.0 (`direct_post.jwt` or
    /// the Digital Credentials API) the DCQL query given, or written from docType and nameSpaces; ISO/IEC TS
    /// 18013-7:2024 Annex B the presentation definition of the session `sessionID`.
    func requirements(answering protocol: PresentationProtocol.Known, sessionID: String) -> PresentationRequirements {
        switch `protocol` {
        case .iso18013_7:
            let definition = PresentationQuery.presentationDefinition(id: sessionID, requests)
            if let requirements = try? PresentationRequirements(presentationDefinition: definition) { return requirements }
        case .openID4VP, .dcAPI:
            if let dcql, let requirements = try? PresentationRequirements(dcql: dcql) { return requirements }
        }
        return itemsRequirements
    }

    /// ISO/IEC TS 18013-7 Annex C: one ItemsRequest per requested credential (ISO/IEC 18013-5 §8.3.2.1.2.1).
    var itemsRequirements: PresentationRequirements { PresentationRequirements(requests: requests) }
}
