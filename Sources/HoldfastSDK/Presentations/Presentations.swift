import CBOR
import COSE
import Crypto
import Foundation
import HoldfastProtocol
import JOSE
import MDoc
import OpenID4VP
import X509

/// A requested element a matched credential holds, with the request's `intent_to_retain` for it.
public struct MatchedClaim: Sendable, Hashable {
    public var nameSpace: String
    public var elementIdentifier: String
    public var intentToRetain: Bool
}

/// What to do with a credential whose status is unknown when a presentation is made (docs/sdk.md "Holder: status").
public enum UnknownStatusPolicy: Sendable, Hashable {
    /// Not offered.
    case exclude
    /// Offered, and named in `MatchedCredentials.unknownStatus` so that the app can warn (the default).
    case allowWithWarning
    /// Offered (and named in `unknownStatus`) only when its status was established online (`statusCheckedAt`) at
    /// most this many seconds ago.
    case allowIfCheckedWithin(seconds: TimeInterval)
}

/// The credentials that can answer one request: those that hold what it requires (docs/sdk.md "Holder: presentation").
public struct MatchedCredentials: Sendable, Hashable {
    public var request: MobileCredentialRequest
    /// The matching credentials, each with `claims` narrowed to the requested elements it holds.
    public var matchedMobileCredentials: [MobileCredentialMetadata]
    /// Credential id → the requested elements it holds, with their `intentToRetain`, in namespace and element order.
    public var claims: [String: [MatchedClaim]]
    /// The ids of matched credentials whose status is unknown, offered under the unknown-status policy.
    public var unknownStatus: Set<String>
    /// When nothing matches: what no stored credential holds of the request (`MissingItem`); empty otherwise.
    public var missing: [MissingItem] = []
}

/// Online presentation (docs/sdk.md "Holder: presentation"; OpenID4VP 1.0 with HAIP 1.0, ISO/IEC TS 18013-7:2024
/// Annex B): trusted verifier certificates, and sessions created from an authorization request.
public actor Presentations {
    let seams: PlatformSeams
    let credentials: Credentials
    let trustedVerifiers: TrustedCertificateStore
    /// Reader CAs for in-person presentation, kept apart from the online verifiers' (ISO/IEC 18013-5 §9.1.4).
    let trustedReaders: TrustedCertificateStore
    /// Receives the redirect URI a verifier answers instead of the platform's URL opener (`PlatformSeams.urlOpener`),
    /// when the app wants to open it itself.
    var redirectHandler: (@Sendable (URL) async -> Void)?
    /// What `autoRedirect` may open besides a trusted verifier's https redirect (`PresentationOptions`).
    public private(set) var options = PresentationOptions()

    init(seams: PlatformSeams, credentials: Credentials) {
        self.seams = seams
        self.credentials = credentials
        self.trustedVerifiers = TrustedCertificateStore(storage: seams.secureStorage, itemKey: TrustedCertificateStore.verifiers)
        self.trustedReaders = TrustedCertificateStore(storage: seams.secureStorage, itemKey: TrustedCertificateStore.readers)
    }

    public func setRedirectHandler(_ handler: (@Sendable (URL) async -> Void)?) { redirectHandler = handler }

    public func setOptions(_ options: PresentationOptions) { self.options = options }

    public func addTrustedVerifierCertificates(_ pems: [String]) async throws(HoldfastError) -> [TrustedVerifierCertificate] {
        try await trustedVerifiers.add(pems)
    }

    public func getTrustedVerifierCertificates() async throws(HoldfastError) -> [TrustedVerifierCertificate] {
        try await trustedVerifiers.all()
    }

    public func removeTrustedVerifierCertificate(id: String) async throws(HoldfastError) {
        try await trustedVerifiers.remove(id: id)
    }

    /// Fetches the request object `authorisationRequestUri` refers to (or takes it by value, `request=`), verifies
    /// it, and matches the stored credentials against what it asks: a credential matches a request when it has its
    /// docType and holds what the request requires. A credential that is revoked, suspended, expired, not yet valid
    /// or does not verify is not offered; one whose status is unknown is as `unknownStatusPolicy` says.
    public func createOnlinePresentationSession(authorisationRequestUri: String, requireTrustedVerifier: Bool = false,
                                                unknownStatusPolicy: UnknownStatusPolicy = .allowWithWarning)
        async throws(HoldfastError) -> OnlinePresentationSession {
        // docs/sdk.md "Holder: the offline limit".
        try await credentials.tethering.requireWithinOfflineLimit()
        let (clientId, source) = try AuthorizationRequestVerifier.parameters(of: authorisationRequestUri)
        let compact: String
        let fetchedFrom: URL?
        switch source {
        case .value(let object):
            compact = object
            fetchedFrom = nil
        case .reference(let requestURI):
            let response: TransportResponse
            do {
                response = try await seams.transport.exchange(TransportRequest(method: "GET", url: requestURI,
                                                                           headers: ["Accept": OpenID4VPIdentifiers.requestObjectMediaType]))
            } catch {
                throw HoldfastError(.networkError, "the request object could not be fetched: \(error)")
            }
            // A verifier serves the request object while its session is open only (the tenant's verifier: docs/server-api.md
            // "Verifier"), so a 404 is a session answered already or expired.
            if response.status == 404 {
                throw HoldfastError(.verifierSessionClosed, "the verifier has no open session for this request: it was answered already or has "
                                    + "expired (ask the verifier for a new one)", httpStatus: 404)
            }
            guard response.status == 200 else {
                throw HoldfastError(.requestInvalid, "the request_uri answered HTTP \(response.status)", httpStatus: response.status)
            }
            compact = String(decoding: response.body, as: UTF8.self)
            fetchedFrom = requestURI
        }
        let trusted = try await trustedVerifiers.certificates().map(\.certificate)
        let verifier = AuthorizationRequestVerifier(trustedCertificates: trusted, requireTrustedVerifier: requireTrustedVerifier)
        let request = try await verifier.verify(compact, fetchedFrom: fetchedFrom, expectedClientId: clientId, at: seams.clock.now())
        let matches = try await match(request.requests, requirements: request.requirements, unknownStatusPolicy: unknownStatusPolicy)
        return OnlinePresentationSession(request: request, matchedCredentials: matches, presentations: self)
    }

    /// The stored credentials that answer each of `requests` (what every presentation session offers): those of its
    /// docType that hold what `requirements` asks of it, verify, and are not revoked, suspended, expired or not yet
    /// valid; one whose status is unknown as `unknownStatusPolicy` says. A request nothing answers names what is
    /// `missing`.
    func match(_ requests: [MobileCredentialRequest], requirements: PresentationRequirements,
               unknownStatusPolicy: UnknownStatusPolicy) async throws(HoldfastError) -> [MatchedCredentials] {
        var matches: [MatchedCredentials] = []
        let stored = try await credentials.getCredentials()
        for wanted in requests {
            var match = MatchedCredentials(request: wanted, matchedMobileCredentials: [], claims: [:], unknownStatus: [])
            // What each stored credential of the docType lacks, and those that lack nothing but cannot be presented:
            // what `missing` names when nothing matches.
            var lacking: [[MissingItem]] = []
            var unpresentable: [String] = []
            for candidate in stored where candidate.docType == wanted.docType {
                let credential = try await credentials.getCredential(credentialId: candidate.id)
                let lacks = Self.lacking(credential, by: requirements.credential(id: wanted.id))
                guard lacks.isEmpty else {
                    lacking.append(lacks)
                    continue
                }
                let result = credential.verificationResult
                if !result.verified {
                    guard result.failureType == .statusUnknown, Self.allows(unknownStatusPolicy, checkedAt: credential.statusCheckedAt,
                                                                            now: seams.clock.now()) else {
                        unpresentable.append(candidate.id)
                        continue
                    }
                    match.unknownStatus.insert(candidate.id)
                }
                let held = Self.requestedClaims(wanted, heldBy: credential)
                var metadata = candidate
                metadata.claims = Dictionary(grouping: held, by: \.nameSpace).mapValues { $0.map(\.elementIdentifier) }
                match.matchedMobileCredentials.append(metadata)
                match.claims[candidate.id] = held
            }
            if match.matchedMobileCredentials.isEmpty {
                match.missing = MissingItem.missing(docType: wanted.docType, lacking: lacking, unpresentable: unpresentable)
            }
            matches.append(match)
        }
        return matches
    }

    /// Whether `credential` holds what `requirement` asks (OpenID4VP 1.0 §6.3–§6.4.1: every claim or one option of
    /// `claim_sets`, with their `values`; ISO/IEC TS 18013-7:2024 B.3.1: every field not marked optional).
    static func holdsWhatIsRequired(_ credential: MobileCredential, by requirement: PresentationRequirements.Credential?) -> Bool {
        lacking(credential, by: requirement).isEmpty
    }

    /// What `credential` lacks of what `requirement` asks (`holdsWhatIsRequired`): the elements it does not hold,
    /// or holds with a value the request does not accept; empty when it holds everything required.
    static func lacking(_ credential: MobileCredential, by requirement: PresentationRequirements.Credential?) -> [MissingItem] {
        guard let requirement else { return [] }
        let requirements = PresentationRequirements(credentials: [requirement])
        let held = PresentationRequirements.Presented(credentialId: requirement.id, elements: credential.claims)
        return requirements.claimsLacking(requirement, in: held).compactMap { MissingItem($0, docType: credential.docType) }
    }

    /// The requested elements `credential` holds, with the request's `intent_to_retain`.
    static func requestedClaims(_ request: MobileCredentialRequest, heldBy credential: MobileCredential) -> [MatchedClaim] {
        request.namespaces.sorted { $0.key < $1.key }.flatMap { space, elements in
            elements.sorted { $0.key < $1.key }.compactMap { element, retain in
                credential.claims[space]?[element] == nil ? nil : MatchedClaim(nameSpace: space, elementIdentifier: element, intentToRetain: retain)
            }
        }
    }

    static func allows(_ policy: UnknownStatusPolicy, checkedAt: Date?, now: Date) -> Bool {
        switch policy {
        case .exclude: false
        case .allowWithWarning: true
        case .allowIfCheckedWithin(let seconds): checkedAt.map { now.timeIntervalSince($0) <= seconds } ?? false
        }
    }
}

/// One answer to one verifier (docs/sdk.md "Holder: presentation"): what it asks, what matches, then one response or a
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

    /// When no stored credential answers any of the requests: the `CREDENTIAL_NOT_FOUND` error naming what is
    /// missing, in its message and as `HoldfastError.missing` (each request's `MatchedCredentials.missing`); nil when
    /// some request has a match. The session stays open: the app tells the verifier with `declineRequest()`.
    public nonisolated var credentialNotFound: HoldfastError? {
        matchedCredentials.credentialNotFound(asker: request.verifierName ?? request.clientId)
    }

    /// Sends one DeviceResponse per requested credential (OpenID4VP 1.0: `vp_token` keyed by the DCQL id; 2024: one
    /// DeviceResponse with every document and a `presentation_submission`), each holding only the requested
    /// elements and signed with the credential's own device key over the SessionTranscript of the protocol,
    /// encrypted to the verifier (`direct_post.jwt`). Returns the verifier's `redirect_uri`, if any; with
    /// `autoRedirect` it is also opened, by the platform's URL opener (`PlatformSeams.urlOpener`) or the app's
    /// redirect handler when it set one, when the verifier was trusted to send it (an `https` URL from a
    /// `.certificate` or `.domain` verifier) or the app allows its scheme (`PresentationOptions.allowedRedirectSchemes`);
    /// otherwise, and with `false`, nothing is opened.
    @discardableResult
    public func sendResponse(credentialIds: [String], autoRedirect: Bool = true) async throws(HoldfastError) -> String? {
        guard !answered else { throw HoldfastError(.validationFailed, "this session has answered already") }
        try await presentations.credentials.tethering.requireWithinOfflineLimit()
        let chosen = try matchedCredentials.chosen(credentialIds)
        let mdocGeneratedNonce = Base64URL.encode((0..<16).map { _ in UInt8.random(in: .min ... .max) })
        let transcript: SessionTranscript
        switch request.presentationProtocol.known {
        case .openID4VP?:
            let thumbprint = (try? request.encryptionKey.thumbprint()).flatMap { Base64URL.decode($0) }
            transcript = SessionTranscript.openID4VP(clientId: request.clientId, nonce: request.nonce, jwkThumbprint: thumbprint,
                                                     responseUri: request.responseUri.absoluteString)
        case .iso18013_7?, .dcAPI?, nil: // .iso18013_7: `AuthorizationRequest` is made for these two protocols only
            transcript = SessionTranscript.iso18013_7(clientId: request.clientId, responseUri: request.responseUri.absoluteString,
                                                      nonce: request.nonce, mdocGeneratedNonce: mdocGeneratedNonce)
        }
        let documents = try await presentations.documents(chosen, sessionTranscript: transcript)
        var payload = AuthorizationResponse()
        switch request.presentationProtocol.known {
        case .openID4VP?:
            payload.vpToken = .object(Dictionary(uniqueKeysWithValues: documents.map {
                ($0.requestId, JSONValue.array([.string(Base64URL.encode(DeviceResponse(documents: [$0.document]).encoded()))]))
            }))
        case .iso18013_7?, .dcAPI?, nil: // .iso18013_7: `AuthorizationRequest` is made for these two protocols only
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
            switch request.presentationProtocol.known {
            case .openID4VP?:
                jwe = try JWE.encrypt(plaintext: plaintext, to: request.encryptionKey, encryption: request.contentEncryption)
            case .iso18013_7?, .dcAPI?, nil: // .iso18013_7: `AuthorizationRequest` is made for these two protocols only
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
            response = try await presentations.seams.transport.exchange(TransportRequest(
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
        if autoRedirect, let redirect, let url = URL(string: redirect),
           await presentations.options.opensRedirect(url, from: request.verifiedBy) {
            if let handler = await presentations.redirectHandler {
                await handler(url)
            } else {
                _ = await presentations.seams.urlOpener.open(url)
            }
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
