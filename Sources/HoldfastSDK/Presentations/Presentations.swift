import CBOR
import COSE
import Crypto
import Foundation
import HoldfastProtocol
import JOSE
import MDoc
import OpenID4VP
import X509

/// The credentials that can answer one request.
public struct MatchedCredentials: Sendable, Hashable {
    public var request: MobileCredentialRequest
    public var matchedMobileCredentials: [MobileCredentialMetadata]
}

/// Online presentation (README "Holder: presentation"; OpenID4VP 1.0 with HAIP 1.0, ISO/IEC TS 18013-7:2024
/// Annex B): trusted verifier certificates, and sessions created from an authorization request.
public actor Presentations {
    let seams: PlatformSeams
    let credentials: Credentials
    let trustedVerifiers: TrustedCertificateStore
    /// Receives the redirect URI a verifier answers, when `sendResponse(credentialIds:autoRedirect:)` is asked to
    /// follow it (an app opens it in the browser).
    var redirectHandler: (@Sendable (URL) async -> Void)?

    init(seams: PlatformSeams, credentials: Credentials) {
        self.seams = seams
        self.credentials = credentials
        self.trustedVerifiers = TrustedCertificateStore(storage: seams.secureStorage, itemKey: TrustedCertificateStore.verifiers)
    }

    public func setRedirectHandler(_ handler: (@Sendable (URL) async -> Void)?) { redirectHandler = handler }

    public func addTrustedVerifierCertificates(_ pems: [String]) async throws(HoldfastError) -> [TrustedVerifierCertificate] {
        try await trustedVerifiers.add(pems)
    }

    public func getTrustedVerifierCertificates() async throws(HoldfastError) -> [TrustedVerifierCertificate] {
        try await trustedVerifiers.all()
    }

    public func removeTrustedVerifierCertificate(id: String) async throws(HoldfastError) {
        try await trustedVerifiers.remove(id: id)
    }

    /// Fetches the request object `authorisationRequestUri` refers to, verifies it, and matches the stored
    /// credentials against what it asks. A credential that is revoked, suspended, expired, not yet valid or does
    /// not verify is not offered; one whose status is unknown is (the verifier decides).
    public func createOnlinePresentationSession(authorisationRequestUri: String,
                                                requireTrustedVerifier: Bool = false) async throws(HoldfastError) -> OnlinePresentationSession {
        // README "Holder: the offline limit".
        try await credentials.tethering.requireWithinOfflineLimit()
        let (clientId, requestURI) = try AuthorizationRequestVerifier.parameters(of: authorisationRequestUri)
        let response: TransportResponse
        do {
            response = try await seams.transport.send(TransportRequest(method: "GET", url: requestURI,
                                                                       headers: ["Accept": OpenID4VPIdentifiers.requestObjectMediaType]))
        } catch {
            throw HoldfastError(.networkError, "the request object could not be fetched: \(error)")
        }
        // A verifier serves the request object while its session is open only (the tenant's verifier: README
        // "Verifier"), so a 404 is a session answered already or expired.
        if response.status == 404 {
            throw HoldfastError(.verifierSessionClosed, "the verifier has no open session for this request: it was answered already or has "
                                + "expired (ask the verifier for a new one)", httpStatus: 404)
        }
        guard response.status == 200 else {
            throw HoldfastError(.requestInvalid, "the request_uri answered HTTP \(response.status)", httpStatus: response.status)
        }
        let trusted = try await trustedVerifiers.certificates().map(\.certificate)
        let verifier = AuthorizationRequestVerifier(trustedCertificates: trusted, requireTrustedVerifier: requireTrustedVerifier)
        let request = try await verifier.verify(String(decoding: response.body, as: UTF8.self), fetchedFrom: requestURI,
                                          expectedClientId: clientId, at: seams.clock.now())
        var matches: [MatchedCredentials] = []
        let stored = try await credentials.getCredentials()
        for wanted in request.requests {
            var offered: [MobileCredentialMetadata] = []
            for candidate in stored where candidate.docType == wanted.docType {
                let result = try await credentials.getCredential(credentialId: candidate.id).verificationResult
                if result.verified || result.failureType == .statusUnknown { offered.append(candidate) }
            }
            matches.append(MatchedCredentials(request: wanted, matchedMobileCredentials: offered))
        }
        return OnlinePresentationSession(request: request, matchedCredentials: matches, presentations: self)
    }
}

/// One answer to one verifier (README "Holder: presentation"): what it asks, what matches, then one response or a
/// decline. A session answers once.
public actor OnlinePresentationSession {
    public nonisolated let request: AuthorizationRequest
    public nonisolated let matchedCredentials: [MatchedCredentials]
    let presentations: Presentations
    private var answered = false

    init(request: AuthorizationRequest, matchedCredentials: [MatchedCredentials], presentations: Presentations) {
        self.request = request
        self.matchedCredentials = matchedCredentials
        self.presentations = presentations
    }

    /// Sends one DeviceResponse per requested credential (OpenID4VP 1.0: `vp_token` keyed by the DCQL id; 2024: one
    /// DeviceResponse with every document and a `presentation_submission`), each holding only the requested
    /// elements and signed with the credential's own device key over the SessionTranscript of the protocol,
    /// encrypted to the verifier (`direct_post.jwt`). Returns the verifier's `redirect_uri`, if any, and hands it
    /// to the redirect handler when `autoRedirect`.
    @discardableResult
    public func sendResponse(credentialIds: [String], autoRedirect: Bool = true) async throws(HoldfastError) -> String? {
        guard !answered else { throw HoldfastError(.validationFailed, "this session has answered already") }
        try await presentations.credentials.tethering.requireWithinOfflineLimit()
        var chosen: [(MobileCredentialRequest, String)] = []
        for id in credentialIds {
            guard let match = matchedCredentials.first(where: { $0.matchedMobileCredentials.contains { $0.id == id } }) else {
                throw HoldfastError(.validationFailed, "credential \(id) answers none of the requests")
            }
            guard !chosen.contains(where: { $0.0.id == match.request.id }) else {
                throw HoldfastError(.validationFailed, "two credentials answer the request \(match.request.id)")
            }
            chosen.append((match.request, id))
        }
        guard !chosen.isEmpty else { throw HoldfastError(.validationFailed, "choose at least one credential, or decline") }

        let seams = presentations.seams
        let mdocGeneratedNonce = Base64URL.encode((0..<16).map { _ in UInt8.random(in: .min ... .max) })
        let transcript: SessionTranscript
        switch request.presentationProtocol {
        case .openID4VP:
            let thumbprint = (try? request.encryptionKey.thumbprint()).flatMap { Base64URL.decode($0) }
            transcript = SessionTranscript.openID4VP(clientId: request.clientId, nonce: request.nonce, jwkThumbprint: thumbprint,
                                                     responseUri: request.responseUri.absoluteString)
        default: // .iso18013_7: `AuthorizationRequest` is made for these two protocols only
            transcript = SessionTranscript.iso18013_7(clientId: request.clientId, responseUri: request.responseUri.absoluteString,
                                                      nonce: request.nonce, mdocGeneratedNonce: mdocGeneratedNonce)
        }
        var documents: [(requestId: String, document: Document)] = []
        for (wanted, id) in chosen {
            let (stored, issuerSigned) = try await presentations.credentials.presentable(id)
            let disclosed = issuerSigned.disclosing(wanted.namespaces.mapValues { Set($0.keys) })
            let deviceSigned = try await Self.deviceSigned(docType: stored.docType, transcript: transcript, alias: stored.keyAlias,
                                                           secureArea: seams.secureArea)
            documents.append((wanted.id, Document(docType: stored.docType, issuerSigned: disclosed, deviceSigned: deviceSigned)))
        }
        var payload = AuthorizationResponse()
        switch request.presentationProtocol {
        case .openID4VP:
            payload.vpToken = .object(Dictionary(uniqueKeysWithValues: documents.map {
                ($0.requestId, JSONValue.array([.string(Base64URL.encode(DeviceResponse(documents: [$0.document]).encoded()))]))
            }))
        default: // .iso18013_7: `AuthorizationRequest` is made for these two protocols only
            payload.vpToken = .string(Base64URL.encode(DeviceResponse(documents: documents.map(\.document)).encoded()))
            payload.presentationSubmission = PresentationSubmission(
                id: UUID().uuidString, definitionId: request.presentationDefinitionId ?? "",
                descriptorMap: documents.map { .init(id: $0.requestId, format: OpenID4VPIdentifiers.msoMdocFormat, path: "$") })
        }
        return try await post(payload, mdocGeneratedNonce: mdocGeneratedNonce, autoRedirect: autoRedirect)
    }

    /// Tells the verifier the person declined (OpenID4VP 1.0 §8.5: `access_denied`, encrypted like a response).
    public func declineRequest() async throws(HoldfastError) {
        guard !answered else { throw HoldfastError(.validationFailed, "this session has answered already") }
        _ = try await post(AuthorizationResponse(error: OpenID4VPIdentifiers.accessDenied), mdocGeneratedNonce: Base64URL.encode((0..<16).map { _ in UInt8.random(in: .min ... .max) }),
                           autoRedirect: false)
    }

    private func post(_ body: AuthorizationResponse, mdocGeneratedNonce: String, autoRedirect: Bool) async throws(HoldfastError) -> String? {
        var payload = body
        if let state = request.state { payload.state = state }
        let jwe: String
        do {
            let plaintext = try payload.payload()
            switch request.presentationProtocol {
            case .openID4VP:
                jwe = try JWE.encrypt(plaintext: plaintext, to: request.encryptionKey, encryption: request.contentEncryption)
            default: // .iso18013_7: `AuthorizationRequest` is made for these two protocols only
                // 18013-7:2024 B.4.3.3.2: apu = mdocGeneratedNonce, apv = nonce.
                jwe = try JWE.encrypt(plaintext: plaintext, to: request.encryptionKey, encryption: request.contentEncryption,
                                      partyUInfo: Array(mdocGeneratedNonce.utf8), partyVInfo: Array(request.nonce.utf8))
            }
        } catch {
            throw HoldfastError(.requestUnsupported, "the response cannot be encrypted to the verifier's key: \(error)")
        }
        let form = PercentEncoding.formBody(DirectPostJWT(response: jwe).formParameters)
        let response: TransportResponse
        do {
            response = try await presentations.seams.transport.send(TransportRequest(
                method: "POST", url: request.responseUri,
                headers: ["Content-Type": DirectPostJWT.mediaType, "Accept": "application/json"], body: Data(form.utf8)))
        } catch {
            throw HoldfastError(.networkError, "the verifier could not be reached: \(error)")
        }
        answered = true
        guard response.status == 200 else {
            throw HoldfastError(.invalidResponse, "the verifier answered HTTP \(response.status)", httpStatus: response.status)
        }
        let redirect = ResponseEndpointReply.decodeIfPresent(response.body)?.redirectUri
        if autoRedirect, let redirect, let url = URL(string: redirect), let handler = await presentations.redirectHandler {
            await handler(url)
        }
        return redirect
    }

    /// ISO/IEC 18013-5 §9.1.3.6: the deviceSignature, a detached COSE_Sign1 (ES256) over DeviceAuthenticationBytes,
    /// made by the secure area with the credential's own key.
    static func deviceSigned(docType: String, transcript: SessionTranscript, alias: String,
                             secureArea: any SecureArea) async throws(HoldfastError) -> DeviceSigned {
        let payload = DeviceAuthentication.taggedBytes(sessionTranscript: transcript, docType: docType,
                                                       deviceNameSpacesBytes: DeviceSigned.emptyNameSpacesBytes)
        let protectedBytes = CBOR.map([CBOR.Pair(.unsigned(1), .negative(6))]).encoded()  // {1: -7}, alg ES256
        let toBeSigned = COSESign1.signatureStructure(protectedBytes: protectedBytes, externalAAD: [], payload: payload)
        let signature: P256.Signing.ECDSASignature
        do { signature = try await secureArea.sign(toBeSigned, alias: alias) } catch { throw HoldfastError.secureArea(error) }
        do {
            let sign1 = try COSESign1(protectedBytes: protectedBytes, unprotected: COSEHeaderMap(), payload: nil,
                                      signature: Array(signature.rawRepresentation))
            return DeviceSigned(nameSpacesBytes: DeviceSigned.emptyNameSpacesBytes, authentication: .signature(sign1))
        } catch {
            throw HoldfastError(.credentialInvalid, "the device signature cannot be assembled: \(error)")
        }
    }
}
