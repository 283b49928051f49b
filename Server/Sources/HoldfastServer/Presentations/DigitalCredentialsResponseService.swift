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
        guard let session = try await sessions.store.session(id: id), session.settings.presentationProtocol == .dcAPI,
              let dcApi = session.settings.dcApi else { throw OAuthError.invalidRequest("unknown session") }
        guard session.answeredAt == nil else { throw OAuthError.invalidRequest("the session was answered already") }
        guard session.expiresAt > Timestamp.milliseconds(now) else { throw OAuthError.invalidRequest("the session has expired") }
        let requests = try await store.requests(sessionID: id)
        let result: PresentationResult
        if let request = requests.first(where: { $0.protocol == answer.protocol.rawValue }) {
            if answer.protocol == .orgIsoMdoc {
                result = try await annexC(answer, request: request, session: session, origins: dcApi.origins, now: now)
            } else {
                result = try await openID4VP(answer, request: request, session: session, origins: dcApi.origins, now: now)
            }
        } else {
            result = Self.failed(PresentationFailureCode.protocolMismatch, "the session offered \(dcApi.protocols.joined(separator: ", ")), "
                + "not \(String(answer.protocol.rawValue.prefix(64)))")
        }
        let responseCode = PresentationSessionService.random(24)
        guard try await sessions.store.answer(id: id, status: result.status, result: String(decoding: try HoldfastJSON.encode(result), as: UTF8.self),
                                              responseCode: responseCode, answeredAt: Timestamp.milliseconds(now)) else {
            throw OAuthError.invalidRequest("the session was answered already")
        }
        return DigitalCredentialsAnswered(responseCode: responseCode)
    }

    // MARK: OpenID4VP 1.0 Appendix A

    /// OpenID4VP 1.0 Appendix A.4 with response mode `dc_api.jwt` (§8.3): the compact JWE to this protocol's key
    /// (ECDH-ES, A128GCM or A256GCM; `apu`/`apv` tolerated), whose payload is `{vp_token}` or an error; the
    /// presentations verified over the B.2.6.2 transcript of each of the session's origins, the first that verifies
    /// being the page's.
    private func openID4VP(_ answer: DigitalCredentialResponse, request: DigitalCredentialsStore.Request,
                           session: PresentationSessionStore.Session, origins: [String], now: Date) async throws -> PresentationResult {
        let data: OpenID4VPDCAPIResponse
        do { data = try OpenID4VPDCAPIResponse(answer) } catch { return Self.failed(PresentationFailureCode.malformed, error.description) }
        let payload: [String: JSONValue]
        switch data {
        case .error:
            return PresentationResult(status: .declined)
        case .clear:
            return Self.failed(PresentationFailureCode.malformed, "the request asked for \(Self.responseMode): a vp_token in the clear is refused (OpenID4VP 1.0 §8.3)")
        case .encrypted(let compact):
            let jwe: JWE
            do { jwe = try JWE(compactSerialization: compact) } catch { return Self.failed(PresentationFailureCode.malformed, "response is not a compact JWE") }
            // A JWE that names another key was made for another session (or another protocol of this one).
            if let kid = jwe.header.kid, kid != request.kid { throw OAuthError.invalidRequest("the response is encrypted to another key") }
            guard let enc = jwe.header.enc, ["A128GCM", "A256GCM"].contains(enc) else {
                return Self.failed(PresentationFailureCode.decryptionFailed, "enc is \(String((jwe.header.enc ?? "absent").prefix(32))), not A128GCM or A256GCM")
            }
            guard let plaintext = try? jwe.decrypt(with: request.key) else {
                return Self.failed(PresentationFailureCode.decryptionFailed, "the response does not decrypt with this session's key")
            }
            guard let object = (try? JSONValue(json: plaintext))?.objectValue else {
                return Self.failed(PresentationFailureCode.malformed, "the decrypted response is not a JSON object")
            }
            payload = object
        }
        if payload["error"] != nil { return PresentationResult(status: .declined) }
        guard payload["vp_token"] != nil else { return Self.failed(PresentationFailureCode.malformed, "the decrypted response has neither vp_token nor error") }
        let thumbprint = try JWK(publicKey: request.key.publicKey).thumbprint()
        let thumbprintBytes = Base64URL.decode(thumbprint)
        let requirements = session.settings.dcql.flatMap { try? PresentationRequirements(dcql: $0) }
            ?? PresentationRequirements(requests: session.settings.requests)
        // One verification: the issuer's side once, the device signature under the transcript of each of the
        // session's origins in turn (`MDocVerifier.verify(_:sessionTranscripts:at:)`).
        let transcripts = origins.map { SessionTranscript.openID4VPDCAPI(origin: $0, nonce: request.nonce, jwkThumbprint: thumbprintBytes) }
        let verifier = PresentationResponseVerifier(protocol: .openID4VP, requirements: requirements, transcripts: transcripts,
                                                    trust: try await sessions.issuerTrust(now: now))
        var result = try await verifier.verify(vpToken: payload["vp_token"], at: now) { reference, iaca in
            try await sessions.statusFailure(reference, issuer: iaca, now: now)
        }
        // A device signature that verifies under none of the origins' transcripts: the answer was made for another page.
        result.failures = result.failures?.map { failure in
            guard failure.code == PresentationFailureCode.deviceSignatureInvalid else { return failure }
            var mismatch = failure
            mismatch.code = PresentationFailureCode.originMismatch
            mismatch.reason = "the device signature verifies under the transcript of none of the session's origins (OpenID4VP 1.0 B.2.6.2)"
            return mismatch
        }
        return result
    }

    // MARK: ISO/IEC TS 18013-7 Annex C

    /// Annex C: `{response: base64url(EncryptedResponse)}`, opened with HPKE under the SessionTranscript of each of
    /// the session's origins (never an origin from the answer); the one that opens is the page's, and the
    /// DeviceResponse is verified over that transcript. A DeviceResponse with status 10 or 20 is the person's
    /// refusal.
    private func annexC(_ answer: DigitalCredentialResponse, request: DigitalCredentialsStore.Request,
                        session: PresentationSessionStore.Session, origins: [String], now: Date) async throws -> PresentationResult {
        let response: AnnexCResponse
        do { response = try AnnexCResponse(answer) } catch { return Self.failed(PresentationFailureCode.malformed, error.description) }
        guard let encryptionInfo = request.encryptionInfo else { return Self.failed(PresentationFailureCode.protocolMismatch, "the session has no org-iso-mdoc request") }
        let opened: AnnexCEncryption.Opened
        do {
            opened = try AnnexCEncryption.open(response.encryptedResponse, recipientKey: request.key, encryptionInfo: encryptionInfo, origins: origins)
        } catch {
            return Self.failed(PresentationFailureCode.decryptionFailed, "the response opens under the SessionTranscript of none of the session's origins "
                + "(a changed ciphertext, another key, or another origin: HPKE cannot tell which)")
        }
        if let deviceResponse = try? DeviceResponse(decoding: opened.deviceResponse), Self.declinedStatuses.contains(deviceResponse.status) {
            return PresentationResult(status: .declined)
        }
        let verifier = PresentationResponseVerifier(protocol: .iso18013_7, requirements: PresentationRequirements(requests: session.settings.requests),
                                                    transcript: opened.sessionTranscript, trust: try await sessions.issuerTrust(now: now))
        return try await verifier.verify(vpToken: .string(Base64URL.encode(opened.deviceResponse)), at: now) { reference, iaca in
            try await sessions.statusFailure(reference, issuer: iaca, now: now)
        }
    }

    /// ISO/IEC 18013-5 §8.3.2.1.2.3 status 10 (general error) and ISO/IEC TS 18013-7 Annex C's 20: the mdoc gives no
    /// document, as a person who declined.
    static let declinedStatuses: Set<UInt64> = [10, 20]

    // MARK: helpers

    static func failed(_ code: PresentationFailureCode, _ reason: String) -> PresentationResult {
        PresentationResult(status: .failed, failures: [.init(code: code, reason: reason)])
    }
}
