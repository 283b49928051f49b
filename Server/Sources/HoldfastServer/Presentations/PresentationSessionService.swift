import Attestation
import CertificatePath
import Crypto
import Foundation
import HoldfastAdmin
import HoldfastProtocol
import JOSE
import MDoc
import OpenID4VP
import PresentationVerification

/// Presentation sessions of the tenant's verifier (docs/server-api.md "Verifier"; OpenID4VP 1.0 with HAIP 1.0, ISO/IEC TS
/// 18013-7:2024 Annex B): a session asks for credentials with a signed request object (`PresentationRequestSigner`),
/// takes one encrypted response (`direct_post.jwt`), opened by `EncryptedAuthorizationResponse`, and runs it through
/// `PresentationPipeline` (verified as an mdoc reader must, the outcome kept for the key that made the session).
struct PresentationSessionService: Sendable {
    static let lifetimes = 30...3_600
    static let defaultLifetime = 300

    /// What a session stores about itself (`presentation_sessions.request`).
    struct Settings: Codable {
        typealias Requested = RequestedCredential
        var presentationProtocol: PresentationProtocol
        var mode: PresentationMode
        var redirectUri: String?
        var clientId: String
        var requests: [Requested]
        var dcql: JSONValue?
        var kid: String
        var authorizationEndpoint: String?
        /// A `dc-api` session's protocols, origins and reader authentication (`DigitalCredentialsSessionService`).
        var dcApi: DigitalCredentialsSessionService.Settings?
    }

    let store: PresentationSessionStore
    let signer: PresentationRequestSigner
    let certificates: VerifierCertificates
    /// The path every answer takes, this service's and `DigitalCredentialsSessionService`'s.
    let pipeline: PresentationPipeline
    let publicURL: @Sendable () -> String
    let random: any RandomSource

    // MARK: creating

    func create(_ request: PresentationSessionRequest, adminKeyID: String, now: Date) async throws -> PresentationSessionCreated {
        var errors: [ProblemDetails.FieldError] = []
        let isOpenID: Bool
        switch request.protocol.known {
        case .openID4VP?: isOpenID = true
        case .iso18013_7?: isOpenID = false
        case .dcAPI?, nil:  // a dc-api session is made by `DigitalCredentialsSessionService`
            isOpenID = false
            errors.append(.init(field: "protocol", code: ProblemDetails.FieldError.invalidValue, detail: #""openid4vp-1.0" or "18013-7-2024""#))
        }
        if request.dcApi != nil {
            errors.append(.init(field: "dcApi", code: ProblemDetails.FieldError.invalidValue, detail: #"only with protocol "dc-api""#))
        }
        if !request.mode.isKnown {
            errors.append(.init(field: "mode", code: ProblemDetails.FieldError.invalidValue, detail: #""cross-device" or "same-device""#))
        }
        if request.mode == .sameDevice {
            if let redirect = request.redirectUri, let url = URL(string: redirect), ["https", "http"].contains(url.scheme?.lowercased() ?? ""),
               url.host != nil, redirect.utf8.count <= 2_048 {
            } else {
                errors.append(.init(field: "redirectUri", code: ProblemDetails.FieldError.invalidValue,
                                    detail: "same-device needs an absolute http(s) redirectUri"))
            }
        }
        let prefix = ClientIdPrefix(rawValue: request.clientIdPrefix ?? ClientIdPrefix.x509Hash.rawValue)
        // Only a valid DNS name is believed by a wallet as an x509_san_dns client id (docs/security.md "Certificate paths").
        let dnsHost = DNSName.isValid(certificates.host)
        if prefix == nil {
            errors.append(.init(field: "clientIdPrefix", code: ProblemDetails.FieldError.invalidValue, detail: #""x509_hash" or "x509_san_dns""#))
        } else if (prefix == .x509SanDNS || !isOpenID) && !dnsHost {
            errors.append(.init(field: isOpenID ? "clientIdPrefix" : "protocol", code: ProblemDetails.FieldError.invalidValue,
                                detail: "x509_san_dns needs a DNS host in HOLDFAST_PUBLIC_URL, not \(certificates.host)"))
        }
        if let endpoint = request.authorizationEndpoint {
            let url = URLComponents(string: endpoint)
            if url?.scheme?.lowercased() != "https" || (url?.host ?? "").isEmpty || url?.fragment != nil || endpoint.utf8.count > 2_048 {
                errors.append(.init(field: "authorizationEndpoint", code: ProblemDetails.FieldError.invalidValue,
                                    detail: "an absolute https URL without a fragment"))
            }
        }
        let lifetime = request.expiresInSeconds ?? Self.defaultLifetime
        if !Self.lifetimes.contains(lifetime) {
            errors.append(.init(field: "expiresInSeconds", code: ProblemDetails.FieldError.outOfRange,
                                detail: "\(Self.lifetimes.lowerBound) to \(Self.lifetimes.upperBound)"))
        }
        var requests: [Settings.Requested] = []
        if let dcql = request.query.dcql {
            if !isOpenID {
                errors.append(.init(field: "query.dcql", code: ProblemDetails.FieldError.invalidValue, detail: "DCQL is for openid4vp-1.0"))
            }
            do {
                // OpenID4VP 1.0 §6: what the verifier will hold the response to must be a query a wallet can answer.
                _ = try PresentationRequirements(dcql: dcql)
                requests = try PresentationQuery.requests(dcql: dcql)
            } catch let invalid as PresentationRequirements.Invalid {
                errors.append(.init(field: "query.dcql", code: ProblemDetails.FieldError.invalidValue, detail: invalid.description))
            } catch {
                errors.append(.init(field: "query.dcql", code: ProblemDetails.FieldError.invalidValue,
                                    detail: "credentials with an id, format mso_mdoc, meta.doctype_value and [namespace, element] claim paths"))
            }
        } else if let docType = request.query.docType, !docType.isEmpty, docType.utf8.count <= 256,
                  let spaces = request.query.nameSpaces, !spaces.isEmpty, spaces.allSatisfy({ !$0.key.isEmpty && !$0.value.isEmpty }),
                  spaces.values.reduce(0, { $0 + $1.count }) <= 200 {
            requests = [Settings.Requested(id: "credential", docType: docType, nameSpaces: spaces)]
        } else {
            errors.append(.init(field: "query", code: ProblemDetails.FieldError.invalidValue,
                                detail: "{docType, nameSpaces: {namespace: {element: intentToRetain}}}, or dcql"))
        }
        guard errors.isEmpty else { throw ProblemError.validation(errors) }

        let id = random.identifier()
        let clientId: String
        if !isOpenID {
            clientId = certificates.host
        } else if prefix == .x509SanDNS {
            clientId = ClientIdPrefix.x509SanDNS.clientId(certificates.host)
        } else {
            clientId = ClientIdPrefix.x509Hash.clientId(Base64URL.encode(SHA256.hash(data: certificates.requestSigner.der)))
        }
        let key = P256.KeyAgreement.PrivateKey()
        let settings = Settings(presentationProtocol: request.protocol, mode: request.mode,
                                redirectUri: request.mode == .sameDevice ? request.redirectUri : nil, clientId: clientId,
                                requests: requests, dcql: request.query.dcql, kid: token(12),
                                authorizationEndpoint: request.authorizationEndpoint)
        let expiresAt = now.addingTimeInterval(TimeInterval(lifetime))
        try await store.insert(id: id, settings: settings, nonce: token(32), state: token(32), key: key,
                               createdBy: adminKeyID, createdAt: now, expiresAt: expiresAt)
        return PresentationSessionCreated(sessionId: id, authorizationRequestUri: authorizationRequestUri(id: id, settings: settings),
                                          requestUri: publicURL() + PresentationRoutes.request(sessionId: id), expiresAt: expiresAt)
    }

    /// `openid4vp://?client_id=…&request_uri=…` (1.0) or `mdoc-openid4vp://?…` (2024), or the session's
    /// `authorizationEndpoint` with those two parameters (`AuthorizationRequestURI`, OpenID4VP 1.0 §5.10).
    private func authorizationRequestUri(id: String, settings: Settings) -> String {
        let request = AuthorizationRequestURI(clientId: settings.clientId, requestUri: publicURL() + PresentationRoutes.request(sessionId: id))
        let parameters = request.queryParameters.map { $0.name + "=" + PercentEncoding.queryValue($0.value) }.joined(separator: "&")
        if let endpoint = settings.authorizationEndpoint {
            return endpoint + (endpoint.contains("?") ? "&" : "?") + parameters
        }
        let scheme: AuthorizationRequestURI.Scheme
        switch settings.presentationProtocol.known {
        case .openID4VP?, .dcAPI?: scheme = .openID4VP
        case .iso18013_7?, nil: scheme = .mdocOpenID4VP
        }
        return scheme.prefix + parameters
    }

    /// The authorisation request URI of a session `adminKeyID` made (for its QR code).
    func authorizationRequestUri(id: String, adminKeyID: String) async throws -> String {
        guard let settings = try await store.settings(id: id, createdBy: adminKeyID), settings.presentationProtocol != .dcAPI else {
            throw PresentationError.sessionNotFound(id: id)
        }
        return authorizationRequestUri(id: id, settings: settings)
    }

    // MARK: the request object

    /// The signed request object (OpenID4VP 1.0 §5; 18013-7:2024 B.3.2), while the session is unanswered and alive.
    func requestObject(id: String, now: Date) async throws -> String {
        guard let session = try await store.session(id: id), session.answeredAt == nil, session.expiresAt > now,
              session.settings.presentationProtocol != .dcAPI else {
            throw PresentationError.openSessionNotFound(id: id)
        }
        return try signer.requestObject(session, now: now)
    }

    // MARK: the response

    /// Takes the wallet's `response=<JWE>` (`DirectPostJWT`): one that decrypts with the session's key to an
    /// `AuthorizationResponse` with its `state` ends the session (verified, failed or declined) and is answered `{}` or
    /// `{redirect_uri}` (`ResponseEndpointReply`); anything else is `invalid_request` and leaves the session as it was.
    func respond(id: String, form: [String: [String]], now: Date) async throws -> ResponseEndpointReply {
        let body: DirectPostJWT
        do { body = try DirectPostJWT(form: form) } catch { throw OAuthError.invalidRequest(error.reason) }
        let answered = try await pipeline.answer(sessionID: id, now: now, accepts: { $0.settings.presentationProtocol != .dcAPI },
                                                 withResponseCode: { $0.settings.redirectUri != nil }) { session in
            let decrypted = try Self.decrypt(body, session: session)
            let payload = decrypted.response
            guard let state = payload.state, ConstantTime.equal(state.utf8, session.state.utf8) else {
                throw OAuthError.invalidRequest("the response's state is not this session's")
            }
            if payload.error != nil { return .concluded(PresentationResult(status: .declined)) }
            return .verify(try answer(payload, handover: decrypted.handover, session: session))
        }
        if let redirect = answered.session.settings.redirectUri, let responseCode = answered.responseCode {
            return ResponseEndpointReply(redirectUri: ResponseEndpointReply.redirectUri(redirect, responseCode: responseCode))
        }
        return ResponseEndpointReply()
    }

    /// The response opened with the session's key (`EncryptedAuthorizationResponse`); one encrypted to another key, or
    /// that does not open to a JSON object, is `invalid_request`.
    private static func decrypt(_ body: DirectPostJWT, session: PresentationSessionStore.Session) throws -> DecryptedAuthorizationResponse {
        let undecryptable = OAuthError.invalidRequest("the response does not decrypt with this session's key")
        do {
            let encrypted = try EncryptedAuthorizationResponse(compactSerialization: body.response)
            guard encrypted.names(kid: session.settings.kid) else { throw OAuthError.invalidRequest("the response is encrypted to another key") }
            return try encrypted.decrypt(with: session.key)
        } catch let error as OAuthError {
            throw error
        } catch EncryptedAuthorizationResponse.Failure.notAnObject {
            throw OAuthError.invalidRequest("the decrypted response is not a JSON object")
        } catch {
            throw undecryptable
        }
    }

    /// What the pipeline verifies of a `vp_token`: over the OpenID4VP 1.0 handover (B.2.6.1), or the 18013-7:2024 one
    /// (B.4.4) of the JWE's `apu` and `apv` (`ISO18013_7Handover.ResponseInputs`), with what this session asked.
    private func answer(_ payload: AuthorizationResponse, handover: ISO18013_7Handover.ResponseInputs,
                        session: PresentationSessionStore.Session) throws -> PresentationPipeline.Answer {
        let settings = session.settings
        let answered: PresentationProtocol.Known = settings.presentationProtocol.known ?? .iso18013_7
        var failures: [PresentationResult.Failure] = []
        let transcript: SessionTranscript
        let responseUri = publicURL() + PresentationRoutes.response(sessionId: session.id)
        switch answered {
        case .openID4VP, .dcAPI:
            let thumbprint = (try? JWK(publicKey: session.key.publicKey).thumbprint()).flatMap { Base64URL.decode($0) }
            transcript = SessionTranscript.openID4VP(clientId: settings.clientId, nonce: session.nonce, jwkThumbprint: thumbprint,
                                                     responseUri: responseUri)
        case .iso18013_7:
            // 18013-7:2024 B.4.3.3.2: apv is the request's nonce.
            if !handover.echoes(nonce: session.nonce) {
                failures.append(.init(code: PresentationFailureCode.nonceMismatch, reason: "apv is not the session's nonce"))
            }
            transcript = handover.sessionTranscript(clientId: settings.clientId, responseUri: responseUri, nonce: session.nonce)
        }
        return PresentationPipeline.Answer(protocol: answered,
                                           requirements: settings.requirements(answering: answered, sessionID: session.id),
                                           transcripts: [transcript], vpToken: payload.vpToken, failures: failures)
    }

    // MARK: the result

    /// The outcome, for `adminKeyID` when it made the session (nil: the command line, which reads any).
    func result(id: String, adminKeyID: String?, now: Date) async throws -> PresentationResult {
        guard let outcome = try await store.outcome(id: id), adminKeyID.map({ outcome.createdBy == $0 }) ?? true else {
            throw PresentationError.sessionNotFound(id: id)
        }
        if let result = outcome.result { return result }
        return PresentationResult(status: outcome.expiresAt <= now ? .expired : .pending)
    }

    /// The outcome for the web page a same-device wallet was sent to (OpenID4VP 1.0 §8.2): the `response_code`
    /// appended to the redirect reads the session's result once; it is then cleared, so a code that leaked through a
    /// browser history or a referrer reads nothing. A wrong, used or absent code is the same `404` as an unknown
    /// session.
    func result(id: String, responseCode: String, now: Date) async throws -> PresentationResult {
        let notFound = PresentationError.responseCodeNotFound(id: id)
        guard UUID(uuidString: id) != nil, responseCode.utf8.count <= 128,
              let row = try await store.responseCode(id: id), let stored = row.code,
              ConstantTime.equal(stored.utf8, responseCode.utf8),
              let result = row.result else { throw notFound }
        // Spent atomically: of two requests with the same code, one reads the result.
        guard try await store.spendResponseCode(id: id, code: stored) else { throw notFound }
        return result
    }

    // MARK: helpers

    /// `bytes` random bytes, base64url (nonces, `state`, `kid`s).
    func token(_ bytes: Int) -> String { Base64URL.encode(random.bytes(bytes)) }
}
