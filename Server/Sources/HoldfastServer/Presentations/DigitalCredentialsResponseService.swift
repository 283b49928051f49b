import CBOR
import Crypto
import DigitalCredentials
import Foundation
import HoldfastAdmin
import HoldfastProtocol
import JOSE
import MDoc
import OpenID4VP

/// The answer of a `dc-api` session (docs/server-api.md "Digital Credentials API"): the `DigitalCredential`
/// `{protocol, data}` the page got from `navigator.credentials.get`. An answer for an open session ends it —
/// verified, failed (with `PresentationFailureCode`s) or declined — and is answered with the `response_code` that
/// reads the result once; an answer for an unknown, answered or expired session, or one that is not a
/// `{protocol, data}` at all, is `invalid_request` and leaves every session as it was.
extension DigitalCredentialsSessionService {
    func respond(id: String, body: [UInt8], now: Date) async throws -> DigitalCredentialsAnswered {
        let answer: DigitalCredentialResponse
        do { answer = try DigitalCredentialResponse(json: body) } catch { throw OAuthError.invalidRequest(error.description) }
        let answered = try await sessions.pipeline.answer(sessionID: id, now: now,
                                                          accepts: { $0.settings.presentationProtocol == .dcAPI && $0.settings.dcApi != nil },
                                                          withResponseCode: { _ in true }) { session in
            let dcApi = session.settings.dcApi ?? Settings(protocols: [], origins: [], readerAuth: false)
            let requests = try await store.requests(sessionID: id)
            guard let request = requests.first(where: { $0.protocol == answer.protocol }) else {
                return .concluded(Self.failed(PresentationFailureCode.protocolMismatch, "the session offered \(dcApi.protocols.joined(separator: ", ")), "
                    + "not \(String(answer.protocol.rawValue.prefix(64)))"))
            }
            if answer.protocol == .orgIsoMdoc {
                return annexC(answer, request: request, session: session, origins: dcApi.origins)
            }
            return try openID4VP(answer, request: request, session: session, origins: dcApi.origins)
        }
        guard let responseCode = answered.responseCode else { throw OAuthError.invalidRequest("the session was answered already") }
        return DigitalCredentialsAnswered(responseCode: responseCode)
    }

    // MARK: OpenID4VP 1.0 Appendix A

    /// OpenID4VP 1.0 Appendix A.4 with response mode `dc_api.jwt` (§8.3): the compact JWE to this protocol's key
    /// (ECDH-ES, A128GCM or A256GCM; `apu`/`apv` tolerated), whose payload is `{vp_token}` or an error; the
    /// presentations verified over the B.2.6.2 transcript of each of the session's origins, the first that verifies
    /// being the page's.
    private func openID4VP(_ answer: DigitalCredentialResponse, request: DigitalCredentialsStore.Request,
                           session: PresentationSessionStore.Session, origins: [String]) throws -> PresentationPipeline.Reading {
        let data: OpenID4VPDCAPIResponse
        do { data = try OpenID4VPDCAPIResponse(answer) } catch { return .concluded(Self.failed(PresentationFailureCode.malformed, error.description)) }
        let payload: [String: JSONValue]
        switch data {
        case .error:
            return .concluded(PresentationResult(status: .declined))
        case .clear:
            return .concluded(Self.failed(PresentationFailureCode.malformed,
                                          "the request asked for \(Self.responseMode): a vp_token in the clear is refused (OpenID4VP 1.0 §8.3)"))
        case .encrypted(let compact):
            do { payload = try Self.decrypt(compact, request: request) } catch let refusal as Refusal { return .concluded(refusal.result) }
        }
        if payload["error"] != nil { return .concluded(PresentationResult(status: .declined)) }
        guard payload["vp_token"] != nil else {
            return .concluded(Self.failed(PresentationFailureCode.malformed, "the decrypted response has neither vp_token nor error"))
        }
        let thumbprintBytes = Base64URL.decode(try JWK(publicKey: request.key.publicKey).thumbprint())
        // One verification: the issuer's side once, the device signature under the transcript of each of the
        // session's origins in turn (`MDocVerifier.verify(_:sessionTranscripts:at:)`).
        let transcripts = origins.map { SessionTranscript.openID4VPDCAPI(origin: $0, nonce: request.nonce, jwkThumbprint: thumbprintBytes) }
        var verified = PresentationPipeline.Answer(protocol: .openID4VP,
                                                   requirements: session.settings.requirements(answering: .openID4VP, sessionID: session.id),
                                                   transcripts: transcripts, vpToken: payload["vp_token"])
        // A device signature that verifies under none of the origins' transcripts: the answer was made for another page.
        verified.noTranscriptRefusal = .init(code: PresentationFailureCode.originMismatch,
                                             reason: "the device signature verifies under the transcript of none of the session's origins (OpenID4VP 1.0 B.2.6.2)")
        return .verify(verified)
    }

    /// A refusal of an Appendix A JWE before any presentation.
    private struct Refusal: Error {
        let result: PresentationResult
        init(_ code: PresentationFailureCode, _ reason: String) { result = DigitalCredentialsSessionService.failed(code, reason) }
    }

    /// The JWE opened with the request's key (`EncryptedAuthorizationResponse`) to its payload's members, or the
    /// `Refusal` of it. A JWE that names another key was made for another session (or another protocol of this
    /// one): `invalid_request`, which leaves the session open.
    private static func decrypt(_ compact: String, request: DigitalCredentialsStore.Request) throws -> [String: JSONValue] {
        let encrypted: EncryptedAuthorizationResponse
        do { encrypted = try EncryptedAuthorizationResponse(compactSerialization: compact) } catch {
            throw Refusal(PresentationFailureCode.malformed, "response is not a compact JWE")
        }
        guard encrypted.names(kid: request.kid) else { throw OAuthError.invalidRequest("the response is encrypted to another key") }
        guard let enc = encrypted.contentEncryption, ["A128GCM", "A256GCM"].contains(enc) else {
            throw Refusal(PresentationFailureCode.decryptionFailed,
                          "enc is \(String((encrypted.contentEncryption ?? "absent").prefix(32))), not A128GCM or A256GCM")
        }
        do {
            return try encrypted.decrypt(with: request.key).members
        } catch .undecryptable, .notCompactJWE {
            throw Refusal(PresentationFailureCode.decryptionFailed, "the response does not decrypt with this session's key")
        } catch {
            throw Refusal(PresentationFailureCode.malformed, "the decrypted response is not a JSON object")
        }
    }

    // MARK: ISO/IEC TS 18013-7 Annex C

    /// Annex C: `{response: base64url(EncryptedResponse)}`, opened with HPKE under the SessionTranscript of each of
    /// the session's origins (never an origin from the answer); the one that opens is the page's, and the
    /// DeviceResponse is verified over that transcript. A DeviceResponse with status 10 or 20 is the person's
    /// refusal.
    private func annexC(_ answer: DigitalCredentialResponse, request: DigitalCredentialsStore.Request,
                        session: PresentationSessionStore.Session, origins: [String]) -> PresentationPipeline.Reading {
        let response: AnnexCResponse
        do { response = try AnnexCResponse(answer) } catch { return .concluded(Self.failed(PresentationFailureCode.malformed, error.description)) }
        guard let encryptionInfo = request.encryptionInfo else {
            return .concluded(Self.failed(PresentationFailureCode.protocolMismatch, "the session has no org-iso-mdoc request"))
        }
        let opened: AnnexCEncryption.Opened
        do {
            opened = try AnnexCEncryption.open(response.encryptedResponse, recipientKey: request.key, encryptionInfo: encryptionInfo, origins: origins)
        } catch {
            return .concluded(Self.failed(PresentationFailureCode.decryptionFailed, "the response opens under the SessionTranscript of none of the session's origins "
                + "(a changed ciphertext, another key, or another origin: HPKE cannot tell which)"))
        }
        if let deviceResponse = try? DeviceResponse(decoding: opened.deviceResponse), Self.declinedStatuses.contains(deviceResponse.status) {
            return .concluded(PresentationResult(status: .declined))
        }
        return .verify(.init(protocol: .iso18013_7, requirements: session.settings.itemsRequirements, transcripts: [opened.sessionTranscript],
                             vpToken: .string(Base64URL.encode(opened.deviceResponse))))
    }

    /// ISO/IEC 18013-5 §8.3.2.1.2.3 status 10 (general error) and ISO/IEC TS 18013-7 Annex C's 20: the mdoc gives no
    /// document, as a person who declined.
    static let declinedStatuses: Set<UInt64> = [10, 20]

    // MARK: helpers

    static func failed(_ code: PresentationFailureCode, _ reason: String) -> PresentationResult {
        PresentationPipeline.failed(code, reason)
    }
}
