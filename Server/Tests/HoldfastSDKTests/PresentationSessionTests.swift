import CBOR
import Crypto
import Foundation
import HoldfastProtocol
@testable import HoldfastSDK
import JOSE
import MDoc
import OpenID4VP
import Testing
import X509

/// A verifier at https://verifier.example as the wallet meets one: it serves a signed request object and checks the
/// encrypted response the way a reader must (ISO/IEC 18013-5 §9.3.1 with the protocol's SessionTranscript).
actor ScriptedVerifier {
    let pki: TestVerifierPKI
    let presentationProtocol: PresentationProtocol
    let issuerIACA: Certificate
    let clock: ManualClock
    let encryptionKey = P256.KeyAgreement.PrivateKey()
    private(set) var verified: [String: [String: Set<String>]] = [:]  // docType → namespace → elements disclosed
    private(set) var failures: [String] = []
    private(set) var declined = false
    private(set) var responses = 0
    /// Whether age_over_18 (which the scripted credential does not hold) is required; by default it is asked as an
    /// alternative (DCQL `claim_sets` [[family_name, age_over_18], [family_name]]; a presentation definition field
    /// with `optional: true`).
    var ageOver18Required = false
    /// The docType asked for.
    var docType = FakeIssuer.docType
    /// The `redirect_uri` the response endpoint answers.
    var redirectUri = "https://verifier.example/done?response_code=rc-1"

    init(pki: TestVerifierPKI, presentationProtocol: PresentationProtocol, issuerIACA: Certificate, clock: ManualClock) {
        self.pki = pki
        self.presentationProtocol = presentationProtocol
        self.issuerIACA = issuerIACA
        self.clock = clock
    }

    nonisolated var encryptionJWK: JWK { JWK(publicKey: encryptionKey.publicKey, kid: "enc-1", use: "enc", alg: "ECDH-ES") }
    var clientId: String { presentationProtocol == .openID4VP ? pki.x509Hash : "verifier.example" }
    static let responseUri = "https://verifier.example/response"
    var authorizationRequestURI: String {
        let scheme = presentationProtocol == .openID4VP ? "openid4vp" : "mdoc-openid4vp"
        return "\(scheme)://?client_id=\(clientId.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")"
            + "&request_uri=https%3A%2F%2Fverifier.example%2Frequest%2F1"
    }

    /// The same request by value: the signed request object in `request` (RFC 9101 §5.1).
    func authorizationRequestURIByValue() throws -> String {
        let scheme = presentationProtocol == .openID4VP ? "openid4vp" : "mdoc-openid4vp"
        return "\(scheme)://?client_id=\(clientId.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")"
            + "&request=\(try requestObject())"
    }

    func setAgeOver18Required(_ value: Bool) { ageOver18Required = value }
    func setRedirectUri(_ value: String) { redirectUri = value }
    func setDocType(_ value: String) { docType = value }

    func handle(_ request: TransportRequest) async throws -> TransportResponse {
        switch (request.method, request.url.path) {
        case ("GET", "/request/1"):
            return TransportResponse(status: 200, headers: ["Content-Type": "application/oauth-authz-req+jwt"], body: Data(try requestObject().utf8))
        case ("POST", "/response"):
            responses += 1
            try await check(String(decoding: request.body ?? Data(), as: UTF8.self))
            return TransportResponse(status: 200, headers: ["Content-Type": "application/json"],
                                     body: try JSONEncoder().encode(["redirect_uri": redirectUri]))
        default:
            return TransportResponse(status: 404)
        }
    }

    func requestObject() throws -> String {
        let jwks = try JSONDecoder().decode(JSONValue.self, from: JSONEncoder().encode(JWKSet(keys: [encryptionJWK])))
        let element: (String, Bool) -> JSONValue = { name, retain in
            .object(["id": .string(name), "path": .array([.string("org.iso.18013.5.1"), .string(name)]), "intent_to_retain": .bool(retain)])
        }
        let claimSets: [String: JSONValue] = ageOver18Required ? [:]
            : ["claim_sets": .array([.array([.string("family_name"), .string("age_over_18")]), .array([.string("family_name")])])]
        switch presentationProtocol {
        case .openID4VP:
            return try pki.requestObject(responseUri: Self.responseUri, issuedAt: clock.now(), extra: [
                "client_metadata": .object(["jwks": jwks, "encrypted_response_enc_values_supported": .array([.string("A128GCM")])]),
                "dcql_query": .object(["credentials": .array([.object([
                    "id": .string("licence"), "format": .string("mso_mdoc"), "meta": .object(["doctype_value": .string(docType)]),
                    "claims": .array([element("family_name", true), element("age_over_18", false)]),
                ].merging(claimSets) { $1 })])]),
            ])
        default: // .iso18013_7, the other protocol these tests are run with
            let field: (String) -> JSONValue = { .object(["path": .array([.string("$['org.iso.18013.5.1']['\($0)']")]), "intent_to_retain": .bool(false)]) }
            let optionalAge: JSONValue = ageOver18Required ? field("age_over_18")
                : .object(["path": .array([.string("$['org.iso.18013.5.1']['age_over_18']")]), "intent_to_retain": .bool(false), "optional": .bool(true)])
            return try pki.requestObject(clientId: "verifier.example", responseUri: Self.responseUri, issuedAt: clock.now(), extra: [
                "client_id_scheme": .string("x509_san_dns"), "dcql_query": .null,
                "presentation_definition": .object(["id": .string("pd-1"), "input_descriptors": .array([.object([
                    "id": .string(docType), "constraints": .object(["fields": .array([field("family_name"), optionalAge])]),
                ])])]),
                "client_metadata": .object(["jwks": jwks, "authorization_encrypted_response_alg": .string("ECDH-ES"),
                                            "authorization_encrypted_response_enc": .string("A256GCM")]),
            ], typ: nil)
        }
    }

    private func check(_ form: String) async throws {
        guard let encoded = form.split(separator: "&").first(where: { $0.hasPrefix("response=") })?.dropFirst("response=".count),
              let compact = String(encoded).removingPercentEncoding else { failures.append("no response"); return }
        let jwe = try JWE(compactSerialization: compact)
        let payload = try #require(try JSONDecoder().decode(JSONValue.self, from: Data(try jwe.decrypt(with: encryptionKey))).objectValue)
        guard payload["state"]?.stringValue == "state-1" else { failures.append("state"); return }
        if payload["error"]?.stringValue == "access_denied" { declined = true; return }
        let transcript: SessionTranscript
        let responses: [String]
        switch presentationProtocol {
        case .openID4VP:
            transcript = SessionTranscript.openID4VP(clientId: clientId, nonce: "nonce-1", jwkThumbprint: Base64URL.decode(try encryptionJWK.thumbprint()),
                                                     responseUri: Self.responseUri)
            responses = payload["vp_token"]?.objectValue?["licence"]?.arrayValue?.compactMap(\.stringValue) ?? []
        default: // .iso18013_7, the other protocol these tests are run with
            let apu = try #require(jwe.header["apu"]?.stringValue.flatMap { Base64URL.decode($0) })
            #expect(jwe.header["apv"]?.stringValue.flatMap { Base64URL.decode($0) } == Array("nonce-1".utf8))
            transcript = SessionTranscript.iso18013_7(clientId: clientId, responseUri: Self.responseUri, nonce: "nonce-1",
                                                      mdocGeneratedNonce: String(decoding: apu, as: UTF8.self))
            responses = payload["vp_token"]?.stringValue.map { [$0] } ?? []
            #expect(payload["presentation_submission"]?.objectValue?["definition_id"] == .string("pd-1"))
        }
        for response in responses {
            let deviceResponse = try DeviceResponse(decoding: try #require(Base64URL.decode(response)))
            for document in deviceResponse.documents {
                do {
                    _ = try await MDocVerifier(trust: IssuerTrust(iacas: [issuerIACA])).verify(document, sessionTranscript: transcript, at: clock.now())
                    verified[document.docType] = Dictionary(uniqueKeysWithValues: document.issuerSigned.nameSpaces.map {
                        ($0.name, Set($0.items.map(\.elementIdentifier)))
                    })
                } catch {
                    failures.append("\(error)")
                }
            }
        }
    }
}

@Suite struct PresentationSessionTests {
    let clock = ManualClock(Date(timeIntervalSince1970: 1_800_000_000))
    let storage = MemorySecureStorage()

    /// A holder with one credential claimed from the scripted issuer, and a scripted verifier of `presentationProtocol`.
    /// `verifierHost`: the name of the verifier's request-signing leaf (its response goes to verifier.example).
    func rig(_ presentationProtocol: PresentationProtocol, opener: RecordingURLOpener = RecordingURLOpener(),
             issuer: FakeIssuer? = nil, verifierHost: String = "verifier.example") async throws -> (MobileCredentialHolder, ScriptedVerifier, credentialId: String) {
        let tenant = FakeTenant(deviceClock: clock)
        let issuer = try issuer ?? FakeIssuer(clock: clock)
        let verifier = ScriptedVerifier(pki: try TestVerifierPKI(host: verifierHost, at: clock.now()), presentationProtocol: presentationProtocol,
                                        issuerIACA: issuer.iaca, clock: clock)
        let holder = MobileCredentialHolder(seams: PlatformSeams(secureStorage: storage, secureArea: SoftwareSecureArea(storage: storage),
                                                                 transport: TenantAndIssuer(tenant: tenant, issuer: issuer, verifier: verifier),
                                                                 clock: clock, sleeper: RecordingSleeper(), jitter: { 1.0 },
                                                                 tetheringScheduler: ManualTetheringScheduler(), urlOpener: opener))
        try await holder.initialize(platformConfiguration: PlatformConfiguration(tenantHost: "tenant.test", applicationId: "app-1"))
        _ = try await holder.registerDevice()
        _ = try await holder.addTrustedIssuerCertificates([await issuer.iacaPEM])
        let claimed = try await holder.claimCredentials(offer: try await holder.retrieveCredentialOffer(uri: FakeIssuer.offerURI()))
        return (holder, verifier, try #require(claimed.first).id)
    }

    @Test(arguments: [PresentationProtocol.openID4VP, .iso18013_7])
    func aCredentialIsPresentedWithOnlyTheRequestedElements(_ presentationProtocol: PresentationProtocol) async throws {
        let (holder, verifier, id) = try await rig(presentationProtocol)
        _ = try await holder.addTrustedVerifierCertificates([try verifier.pki.ca.serializeAsPEM().pemString])
        let session = try await holder.createOnlinePresentationSession(authorisationRequestUri: await verifier.authorizationRequestURI,
                                                                       requireTrustedVerifier: true)
        #expect(session.request.verifiedBy == .certificate && session.request.presentationProtocol == presentationProtocol)
        #expect(session.matchedCredentials.first?.matchedMobileCredentials.map(\.id) == [id])
        let redirected = RedirectRecorder()
        await holder.presentations.setRedirectHandler { url in await redirected.record(url) }
        let redirect = try await session.sendResponse(credentialIds: [id])
        #expect(redirect == "https://verifier.example/done?response_code=rc-1")
        #expect(await redirected.urls.map(\.absoluteString) == [redirect])
        let failures = await verifier.failures
        #expect(failures.isEmpty, "\(failures)")
        // family_name was asked and is there; age_over_18 was asked but the credential has none; birth_date was not asked.
        #expect(await verifier.verified == [FakeIssuer.docType: ["org.iso.18013.5.1": ["family_name"]]])
        // One answer per session.
        let again = await holdfastError { try await session.sendResponse(credentialIds: [id]) }
        #expect(again?.code == .validationFailed)
        #expect(await verifier.responses == 1)
    }

    @Test func aDeclineIsSentEncrypted() async throws {
        let (holder, verifier, _) = try await rig(.openID4VP)
        _ = try await holder.addTrustedVerifierCertificates([try verifier.pki.ca.serializeAsPEM().pemString])
        let session = try await holder.createOnlinePresentationSession(authorisationRequestUri: await verifier.authorizationRequestURI)
        try await session.declineRequest()
        #expect(await verifier.declined)
        #expect(await holdfastError { try await session.declineRequest() }?.code == .validationFailed)
    }

    @Test func anUntrustedVerifierIsRefusedWhenTrustIsRequired() async throws {
        let (holder, verifier, _) = try await rig(.openID4VP)
        let error = await holdfastError {
            try await holder.createOnlinePresentationSession(authorisationRequestUri: await verifier.authorizationRequestURI, requireTrustedVerifier: true)
        }
        #expect(error?.code == .verifierUntrusted)
        // Without required trust the https host named by the certificate vouches for it.
        let session = try await holder.createOnlinePresentationSession(authorisationRequestUri: await verifier.authorizationRequestURI)
        #expect(session.request.verifiedBy == .domain)
    }

    @Test func aRevokedOrExpiredCredentialIsNotOffered() async throws {
        let (holder, verifier, _) = try await rig(.openID4VP)
        _ = try await holder.addTrustedVerifierCertificates([try verifier.pki.ca.serializeAsPEM().pemString])
        clock.advance(by: 86_400 * 31)  // past the credential's validUntil (30 days); the verifier's certificates still valid
        let session = try await holder.createOnlinePresentationSession(authorisationRequestUri: await verifier.authorizationRequestURI)
        #expect(session.matchedCredentials.first?.matchedMobileCredentials.isEmpty == true)
        #expect(await holdfastError { try await session.sendResponse(credentialIds: ["anything"]) }?.code == .validationFailed)
    }

    // MARK: matching by what was asked (docs/sdk.md "Holder: presentation")

    @Test(arguments: [PresentationProtocol.openID4VP, .iso18013_7])
    func aCredentialWithoutARequiredElementIsNotOffered(_ presentationProtocol: PresentationProtocol) async throws {
        let (holder, verifier, id) = try await rig(presentationProtocol)
        _ = try await holder.addTrustedVerifierCertificates([try verifier.pki.ca.serializeAsPEM().pemString])
        // age_over_18 is an alternative (claim_sets / optional): the credential, which has family_name only, matches.
        let offered = try await holder.createOnlinePresentationSession(authorisationRequestUri: await verifier.authorizationRequestURI)
        #expect(offered.matchedCredentials.first?.matchedMobileCredentials.map(\.id) == [id])
        // Required: the same credential, of the right docType, is not offered.
        await verifier.setAgeOver18Required(true)
        let refused = try await holder.createOnlinePresentationSession(authorisationRequestUri: await verifier.authorizationRequestURI)
        let match = try #require(refused.matchedCredentials.first)
        #expect(match.matchedMobileCredentials.isEmpty && match.claims.isEmpty)
        #expect(await holdfastError { try await refused.sendResponse(credentialIds: [id]) }?.code == .validationFailed)
    }

    @Test func theMatchedClaimsAreTheRequestedElementsHeldWithTheirIntentToRetain() async throws {
        let (holder, verifier, id) = try await rig(.openID4VP)
        _ = try await holder.addTrustedVerifierCertificates([try verifier.pki.ca.serializeAsPEM().pemString])
        let session = try await holder.createOnlinePresentationSession(authorisationRequestUri: await verifier.authorizationRequestURI)
        let match = try #require(session.matchedCredentials.first)
        // Asked: family_name (retained) and age_over_18; held: family_name and birth_date.
        #expect(match.claims[id] == [MatchedClaim(nameSpace: "org.iso.18013.5.1", elementIdentifier: "family_name", intentToRetain: true)])
        #expect(match.matchedMobileCredentials.first?.claims == ["org.iso.18013.5.1": ["family_name"]])
        #expect(try await holder.getCredentials().first?.claims["org.iso.18013.5.1"]?.count == 2)
    }

    @Test func aDCQLClaimWithValuesMatchesOnlyThoseValues() throws {
        let claim = PresentationRequirements.Claim(nameSpace: "org.iso.18013.5.1", element: "family_name", values: [.string("Roe")])
        let requirement = PresentationRequirements.Credential(id: "licence", docType: FakeIssuer.docType, claims: [claim])
        func credential(_ name: String) -> MobileCredential {
            MobileCredential(metadata: MobileCredentialMetadata(id: "c", docType: FakeIssuer.docType, branding: nil, claims: [:],
                                                                issuerInfo: CredentialIssuerInfo(),
                                                                validityInfo: CredentialValidityInfo(validFrom: .distantPast, validUntil: .distantFuture)),
                             claims: ["org.iso.18013.5.1": ["family_name": .string(name)]], verificationResult: .success, status: nil,
                             statusCheckedAt: nil, issuerSigned: [])
        }
        #expect(Presentations.holdsWhatIsRequired(credential("Roe"), by: requirement))
        #expect(!Presentations.holdsWhatIsRequired(credential("Doe"), by: requirement))
    }

    // MARK: the redirect (docs/sdk.md "Holder: presentation")

    @Test func autoRedirectOpensTheRedirectThroughThePlatformSeam() async throws {
        let opener = RecordingURLOpener()
        let (holder, verifier, id) = try await rig(.openID4VP, opener: opener)
        _ = try await holder.addTrustedVerifierCertificates([try verifier.pki.ca.serializeAsPEM().pemString])
        // No handler installed: the seam opens it.
        let first = try await holder.createOnlinePresentationSession(authorisationRequestUri: await verifier.authorizationRequestURI)
        let redirect = try await first.sendResponse(credentialIds: [id], autoRedirect: true)
        #expect(opener.opened.map(\.absoluteString) == ["https://verifier.example/done?response_code=rc-1"] && redirect == opener.opened.first?.absoluteString)
        // autoRedirect false: the URI is returned and nothing is opened.
        let second = try await holder.createOnlinePresentationSession(authorisationRequestUri: await verifier.authorizationRequestURI)
        #expect(try await second.sendResponse(credentialIds: [id], autoRedirect: false) == "https://verifier.example/done?response_code=rc-1")
        #expect(opener.opened.count == 1)
    }

    /// docs/sdk.md "Holder: presentation": `autoRedirect` opens only an https redirect from a verifier verified by
    /// `.certificate` or `.domain`, and otherwise what `PresentationOptions.allowedRedirectSchemes` allows; anything
    /// else is returned and not opened (nor handed to the app's redirect handler).
    @Test func autoRedirectOpensOnlyWhatTheVerifierWasTrustedToSend() async throws {
        let opener = RecordingURLOpener()
        let (holder, verifier, id) = try await rig(.openID4VP, opener: opener)
        _ = try await holder.addTrustedVerifierCertificates([try verifier.pki.ca.serializeAsPEM().pemString])
        func present(_ redirect: String) async throws -> (VerifierTrust, String?) {
            await verifier.setRedirectUri(redirect)
            let session = try await holder.createOnlinePresentationSession(authorisationRequestUri: await verifier.authorizationRequestURI)
            return (session.request.verifiedBy, try await session.sendResponse(credentialIds: [id], autoRedirect: true))
        }
        for redirect in ["tel:+15551234567", "otherapp://done?code=1", "http://verifier.example/done"] {
            let (trust, returned) = try await present(redirect)
            #expect(trust == .certificate && returned == redirect)
        }
        #expect(opener.opened.isEmpty, "\(opener.opened)")
        // Nor through the app's handler.
        let handled = RedirectRecorder()
        await holder.presentations.setRedirectHandler { url in await handled.record(url) }
        #expect(try await present("tel:+15551234567").1 == "tel:+15551234567")
        #expect(await handled.urls.isEmpty)
        await holder.presentations.setRedirectHandler(nil)
        // The app allows its own scheme: that one is opened, the others still not.
        await holder.presentations.setOptions(PresentationOptions(allowedRedirectSchemes: ["otherapp"]))
        _ = try await present("otherapp://done?code=2")
        _ = try await present("tel:+15551234567")
        #expect(opener.opened.map(\.absoluteString) == ["otherapp://done?code=2"])
        // https from a verifier verified by its certificate: opened.
        _ = try await present("https://verifier.example/done?response_code=rc-2")
        #expect(opener.opened.map(\.absoluteString) == ["otherapp://done?code=2", "https://verifier.example/done?response_code=rc-2"])
    }

    @Test func autoRedirectOpensADomainVerifiersHTTPSRedirect() async throws {
        let opener = RecordingURLOpener()
        let (holder, verifier, id) = try await rig(.openID4VP, opener: opener)
        let session = try await holder.createOnlinePresentationSession(authorisationRequestUri: await verifier.authorizationRequestURI)
        #expect(session.request.verifiedBy == .domain)
        let redirect = try await session.sendResponse(credentialIds: [id], autoRedirect: true)
        #expect(opener.opened.map(\.absoluteString) == ["https://verifier.example/done?response_code=rc-1"] && redirect == opener.opened.first?.absoluteString)
    }

    /// A verifier verified by nothing (its leaf names another host than the one its response goes to): its https
    /// redirect is returned, not opened — unless the app allows https for every verifier.
    @Test func autoRedirectDoesNotOpenAnUnverifiedVerifiersHTTPSRedirect() async throws {
        let opener = RecordingURLOpener()
        let (holder, verifier, id) = try await rig(.openID4VP, opener: opener, verifierHost: "elsewhere.example")
        let first = try await holder.createOnlinePresentationSession(authorisationRequestUri: await verifier.authorizationRequestURI)
        #expect(first.request.verifiedBy == VerifierTrust.none && first.request.verifierName == "verifier.example")
        #expect(try await first.sendResponse(credentialIds: [id], autoRedirect: true) == "https://verifier.example/done?response_code=rc-1")
        #expect(opener.opened.isEmpty, "\(opener.opened)")
        await holder.presentations.setOptions(PresentationOptions(allowedRedirectSchemes: ["HTTPS"]))
        let second = try await holder.createOnlinePresentationSession(authorisationRequestUri: await verifier.authorizationRequestURI)
        _ = try await second.sendResponse(credentialIds: [id], autoRedirect: true)
        #expect(opener.opened.map(\.absoluteString) == ["https://verifier.example/done?response_code=rc-1"])
    }

    // MARK: request by value (RFC 9101 §5.1)

    @Test(arguments: [PresentationProtocol.openID4VP, .iso18013_7])
    func aRequestByValueIsAcceptedAsByReference(_ presentationProtocol: PresentationProtocol) async throws {
        let (holder, verifier, id) = try await rig(presentationProtocol)
        _ = try await holder.addTrustedVerifierCertificates([try verifier.pki.ca.serializeAsPEM().pemString])
        let session = try await holder.createOnlinePresentationSession(authorisationRequestUri: try await verifier.authorizationRequestURIByValue(),
                                                                       requireTrustedVerifier: true)
        #expect(session.request.verifiedBy == .certificate && session.request.presentationProtocol == presentationProtocol)
        _ = try await session.sendResponse(credentialIds: [id], autoRedirect: false)
        let failures = await verifier.failures
        #expect(failures.isEmpty, "\(failures)")
        #expect(await verifier.verified == [FakeIssuer.docType: ["org.iso.18013.5.1": ["family_name"]]])
    }

    @Test func aRequestByValueIsRefusedBesideARequestURIOrWhenItIsNotSigned() async throws {
        let (holder, verifier, _) = try await rig(.openID4VP)
        let byValue = try await verifier.authorizationRequestURIByValue()
        let both = byValue + "&request_uri=https%3A%2F%2Fverifier.example%2Frequest%2F1"
        #expect(await holdfastError { try await holder.createOnlinePresentationSession(authorisationRequestUri: both) }?.code == .requestInvalid)
        let unsigned = "openid4vp://?client_id=x&response_type=vp_token&dcql_query=%7B%7D"
        #expect(await holdfastError { try await holder.createOnlinePresentationSession(authorisationRequestUri: unsigned) }?.code == .requestUnsupported)
        // The signed object with one byte of its signature changed.
        var tampered = Array(byValue.utf8)
        tampered[tampered.count - 2] = tampered[tampered.count - 2] == UInt8(ascii: "A") ? UInt8(ascii: "B") : UInt8(ascii: "A")
        #expect(await holdfastError {
            try await holder.createOnlinePresentationSession(authorisationRequestUri: String(decoding: tampered, as: UTF8.self))
        }?.code == .requestSignatureInvalid)
    }

    // MARK: unknown status (docs/sdk.md "Holder: status")

    /// A credential whose status list was fetched at `checkedAt`, then expired with the issuer's list unreachable.
    func unknownStatusRig() async throws -> (MobileCredentialHolder, ScriptedVerifier, id: String, checkedAt: Date) {
        let issuer = try FakeIssuer(clock: clock)
        await issuer.enableStatus()
        let (holder, verifier, id) = try await rig(.openID4VP, issuer: issuer)
        _ = try await holder.addTrustedVerifierCertificates([try verifier.pki.ca.serializeAsPEM().pemString])
        let checkedAt = clock.now()
        let checked = try await holder.getCredential(credentialId: id)
        #expect(checked.status == .valid && checked.statusCheckedAt == checkedAt)
        await issuer.setStatusUnavailable(true)
        clock.advance(by: 7_200)  // past the token's exp (1 h)
        let unknown = try await holder.getCredential(credentialId: id)
        #expect(unknown.verificationResult == .failure(.statusUnknown) && unknown.status == .unknown(.tokenExpired))
        #expect(unknown.statusCheckedAt == checkedAt)
        return (holder, verifier, id, checkedAt)
    }

    @Test func aCredentialOfUnknownStatusIsOfferedWithAWarningByDefault() async throws {
        let (holder, verifier, id, _) = try await unknownStatusRig()
        let session = try await holder.createOnlinePresentationSession(authorisationRequestUri: await verifier.authorizationRequestURI)
        #expect(session.matchedCredentials.first?.matchedMobileCredentials.map(\.id) == [id])
        #expect(session.matchedCredentials.first?.unknownStatus == [id])
    }

    @Test func aCredentialOfUnknownStatusIsExcludedWhenThePolicySays() async throws {
        let (holder, verifier, _, _) = try await unknownStatusRig()
        let session = try await holder.createOnlinePresentationSession(authorisationRequestUri: await verifier.authorizationRequestURI,
                                                                       unknownStatusPolicy: .exclude)
        #expect(session.matchedCredentials.first?.matchedMobileCredentials.isEmpty == true)
    }

    @Test func aCredentialOfUnknownStatusIsOfferedOnlyWhenCheckedWithinTheLimit() async throws {
        let (holder, verifier, id, _) = try await unknownStatusRig()  // checked 7 200 s ago
        let recent = try await holder.createOnlinePresentationSession(authorisationRequestUri: await verifier.authorizationRequestURI,
                                                                      unknownStatusPolicy: .allowIfCheckedWithin(seconds: 7_300))
        #expect(recent.matchedCredentials.first?.matchedMobileCredentials.map(\.id) == [id])
        #expect(recent.matchedCredentials.first?.unknownStatus == [id])
        let stale = try await holder.createOnlinePresentationSession(authorisationRequestUri: await verifier.authorizationRequestURI,
                                                                     unknownStatusPolicy: .allowIfCheckedWithin(seconds: 7_100))
        #expect(stale.matchedCredentials.first?.matchedMobileCredentials.isEmpty == true)
    }

    @Test func aCredentialNeverCheckedOnlineIsNotAllowedByCheckedWithin() async throws {
        #expect(!Presentations.allows(.allowIfCheckedWithin(seconds: 86_400), checkedAt: nil, now: clock.now()))
        #expect(Presentations.allows(.allowWithWarning, checkedAt: nil, now: clock.now()))
        #expect(!Presentations.allows(.exclude, checkedAt: clock.now(), now: clock.now()))
    }
}

actor RedirectRecorder {
    private(set) var urls: [URL] = []
    func record(_ url: URL) { urls.append(url) }
}
