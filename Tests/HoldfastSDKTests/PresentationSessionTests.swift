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

    func handle(_ request: TransportRequest) async throws -> TransportResponse {
        switch (request.method, request.url.path) {
        case ("GET", "/request/1"):
            return TransportResponse(status: 200, headers: ["Content-Type": "application/oauth-authz-req+jwt"], body: Data(try requestObject().utf8))
        case ("POST", "/response"):
            responses += 1
            try await check(String(decoding: request.body ?? Data(), as: UTF8.self))
            return TransportResponse(status: 200, headers: ["Content-Type": "application/json"],
                                     body: Data(#"{"redirect_uri":"https://verifier.example/done?response_code=rc-1"}"#.utf8))
        default:
            return TransportResponse(status: 404)
        }
    }

    func requestObject() throws -> String {
        let jwks = try JSONDecoder().decode(JSONValue.self, from: JSONEncoder().encode(JWKSet(keys: [encryptionJWK])))
        let element: (String, Bool) -> JSONValue = { name, retain in
            .object(["path": .array([.string("org.iso.18013.5.1"), .string(name)]), "intent_to_retain": .bool(retain)])
        }
        switch presentationProtocol {
        case .openID4VP:
            return try pki.requestObject(responseUri: Self.responseUri, issuedAt: clock.now(), extra: [
                "client_metadata": .object(["jwks": jwks, "encrypted_response_enc_values_supported": .array([.string("A128GCM")])]),
                "dcql_query": .object(["credentials": .array([.object([
                    "id": .string("licence"), "format": .string("mso_mdoc"), "meta": .object(["doctype_value": .string(FakeIssuer.docType)]),
                    "claims": .array([element("family_name", true), element("age_over_18", false)]),
                ])])]),
            ])
        default: // .iso18013_7, the other protocol these tests are run with
            let field: (String) -> JSONValue = { .object(["path": .array([.string("$['org.iso.18013.5.1']['\($0)']")]), "intent_to_retain": .bool(false)]) }
            return try pki.requestObject(clientId: "verifier.example", responseUri: Self.responseUri, issuedAt: clock.now(), extra: [
                "client_id_scheme": .string("x509_san_dns"), "dcql_query": .null,
                "presentation_definition": .object(["id": .string("pd-1"), "input_descriptors": .array([.object([
                    "id": .string(FakeIssuer.docType), "constraints": .object(["fields": .array([field("family_name"), field("age_over_18")])]),
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
    func rig(_ presentationProtocol: PresentationProtocol) async throws -> (MobileCredentialHolder, ScriptedVerifier, credentialId: String) {
        let tenant = FakeTenant(deviceClock: clock)
        let issuer = try FakeIssuer(clock: clock)
        let verifier = ScriptedVerifier(pki: try TestVerifierPKI(at: clock.now()), presentationProtocol: presentationProtocol,
                                        issuerIACA: await issuer.iaca, clock: clock)
        let holder = MobileCredentialHolder(seams: PlatformSeams(secureStorage: storage, secureArea: SoftwareSecureArea(storage: storage),
                                                                 transport: TenantAndIssuer(tenant: tenant, issuer: issuer, verifier: verifier),
                                                                 clock: clock, sleeper: RecordingSleeper(), jitter: { 1.0 },
                                                                 tetheringScheduler: ManualTetheringScheduler()))
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
}

actor RedirectRecorder {
    private(set) var urls: [URL] = []
    func record(_ url: URL) { urls.append(url) }
}
