import CBOR
import COSE
import Crypto
import DigitalCredentials
import Foundation
import HoldfastProtocol
@testable import HoldfastSDK
import JOSE
import MDoc
import OpenID4VP
import Testing
import X509

/// The SDK as a Digital Credentials API provider (docs/sdk.md "Digital Credentials API"): requests written as a
/// verifier writes them, answered by the SDK, the answers opened and verified verifier-side; each refusal alone.
@Suite struct DigitalCredentialsPresentationTests {
    let clock = ManualClock(Date(timeIntervalSince1970: 1_800_000_000))
    let storage = MemorySecureStorage()
    let origin = DigitalCredentialsTestVerifier.origin

    /// A holder with one credential (family_name, birth_date) claimed from the scripted issuer, and the page's verifier.
    func rig() async throws -> (MobileCredentialHolder, DigitalCredentialsTestVerifier, credentialId: String) {
        let tenant = FakeTenant(deviceClock: clock)
        let issuer = try FakeIssuer(clock: clock)
        let holder = MobileCredentialHolder(seams: PlatformSeams(secureStorage: storage, secureArea: SoftwareSecureArea(storage: storage),
                                                                 transport: TenantAndIssuer(tenant: tenant, issuer: issuer, verifier: nil),
                                                                 clock: clock, sleeper: RecordingSleeper(), jitter: { 1.0 },
                                                                 tetheringScheduler: ManualTetheringScheduler(), urlOpener: RecordingURLOpener()))
        try await holder.initialize(platformConfiguration: PlatformConfiguration(tenantHost: "tenant.test", applicationId: "app-1"))
        _ = try await holder.registerDevice()
        _ = try await holder.addTrustedIssuerCertificates([await issuer.iacaPEM])
        let claimed = try await holder.claimCredentials(offer: try await holder.retrieveCredentialOffer(uri: FakeIssuer.offerURI()))
        return (holder, try DigitalCredentialsTestVerifier(issuerIACA: issuer.iaca, at: clock.now()), try #require(claimed.first).id)
    }

    func trust(_ holder: MobileCredentialHolder, _ verifier: DigitalCredentialsTestVerifier) async throws {
        _ = try await holder.addTrustedVerifierCertificates([try verifier.pki.ca.serializeAsPEM().pemString])
    }

    func refusal(_ holder: MobileCredentialHolder, _ request: Data, origin: String? = nil,
                 requireTrustedVerifier: Bool = false) async -> HoldfastError? {
        await holdfastError {
            try await holder.createDigitalCredentialsPresentationSession(request: request, origin: origin ?? self.origin,
                                                                         requireTrustedVerifier: requireTrustedVerifier)
        }
    }

    // MARK: OpenID4VP 1.0 Appendix A

    @Test func aSignedOpenID4VPRequestIsAnsweredWithAnEncryptedDeviceResponseBoundToTheOrigin() async throws {
        let (holder, verifier, id) = try await rig()
        try await trust(holder, verifier)
        let session = try await holder.createDigitalCredentialsPresentationSession(
            request: try verifier.signedRequest(issuedAt: clock.now()), origin: origin, requireTrustedVerifier: true)
        #expect(session.request.protocol == .openID4VPSigned && session.request.origin == origin)
        #expect(session.request.verifiedBy == .certificate && session.request.verifierName == "shop.example")
        #expect(session.request.clientId == verifier.pki.x509Hash)
        #expect(session.matchedCredentials.first?.matchedMobileCredentials.map(\.id) == [id])
        #expect(session.credentialNotFound == nil)

        let answer = try await session.sendResponse(credentialIds: [id])
        let (header, payload) = try verifier.openOpenID4VP(answer, protocol: .openID4VPSigned)
        #expect(header.alg == "ECDH-ES" && header.enc == "A128GCM" && header.kid == "enc-1")
        let responses = try verifier.deviceResponses(payload)
        #expect(responses.count == 1)
        let verified = try await verifier.verify(try #require(responses.first), transcript: try verifier.openID4VPTranscript(), at: clock.now())
        #expect(verified == [FakeIssuer.docType: ["org.iso.18013.5.1": ["family_name"]]])
        // The device signature names the page's origin: over another origin's transcript it does not verify.
        await #expect(throws: MDocError.self) {
            _ = try await verifier.verify(try #require(responses.first), transcript: try verifier.openID4VPTranscript(origin: "https://other.example"),
                                          at: clock.now())
        }
        // One answer per session.
        #expect(await holdfastError { try await session.sendResponse(credentialIds: [id]) }?.code == .validationFailed)
        #expect(await holdfastError { try await session.declineRequest() }?.code == .validationFailed)
    }

    @Test func anOpenID4VPDeclineIsAccessDeniedInsideTheJWE() async throws {
        let (holder, verifier, _) = try await rig()
        let session = try await holder.createDigitalCredentialsPresentationSession(request: try verifier.signedRequest(issuedAt: clock.now()),
                                                                                   origin: origin)
        let (header, payload) = try verifier.openOpenID4VP(try await session.declineRequest(), protocol: .openID4VPSigned)
        #expect(header.kid == "enc-1")
        #expect(payload == ["error": .string("access_denied")])
    }

    @Test func anUnsignedRequestIsVerifiedByNothingAndNamedByTheOriginsHost() async throws {
        let (holder, verifier, id) = try await rig()
        try await trust(holder, verifier)
        let session = try await holder.createDigitalCredentialsPresentationSession(request: try verifier.unsignedRequest(), origin: origin)
        #expect(session.request.protocol == .openID4VPUnsigned)
        #expect(session.request.verifiedBy == .none && session.request.verifierName == "shop.example" && session.request.clientId == nil)
        let (_, payload) = try verifier.openOpenID4VP(try await session.sendResponse(credentialIds: [id]), protocol: .openID4VPUnsigned)
        let response = try #require(try verifier.deviceResponses(payload).first)
        #expect(try await verifier.verify(response, transcript: try verifier.openID4VPTranscript(), at: clock.now()).keys.sorted() == [FakeIssuer.docType])
        // Nothing vouches for an unsigned request: refused when trust is required.
        #expect(await refusal(holder, try verifier.unsignedRequest(), requireTrustedVerifier: true)?.code == .verifierUntrusted)
    }

    // MARK: OpenID4VP refusals, each alone

    @Test func anOriginNotInExpectedOriginsIsRefused() async throws {
        let (holder, verifier, _) = try await rig()
        try await trust(holder, verifier)
        let request = try verifier.signedRequest(issuedAt: clock.now())
        // The same request is accepted from its own origin …
        _ = try await holder.createDigitalCredentialsPresentationSession(request: request, origin: origin)
        // … and refused from another, or from the same one written otherwise (an exact string comparison).
        for other in ["https://other.example", "https://shop.example/", "https://SHOP.example", "https://shop.example:443", "http://shop.example"] {
            let error = await refusal(holder, request, origin: other)
            #expect(error?.code == .originNotExpected, "\(other): \(String(describing: error))")
        }
        #expect(await refusal(holder, try verifier.signedRequest(expectedOrigins: ["https://other.example"], issuedAt: clock.now()))?.code
                == .originNotExpected)
    }

    @Test func aRequestObjectNotSignedByItsLeafIsRefused() async throws {
        let (holder, verifier, _) = try await rig()
        let request = try verifier.signedRequest(issuedAt: clock.now(), signer: P256.Signing.PrivateKey())
        #expect(await refusal(holder, request)?.code == .requestSignatureInvalid)
    }

    @Test func aChainThatReachesNoTrustedVerifierIsRefusedWhenTrustIsRequired() async throws {
        let (holder, verifier, _) = try await rig()
        let request = try verifier.signedRequest(issuedAt: clock.now())
        #expect(await refusal(holder, request, requireTrustedVerifier: true)?.code == .verifierUntrusted)
        // Not required: accepted, but never `.certificate` (the leaf names the page's host: `.domain`).
        let session = try await holder.createDigitalCredentialsPresentationSession(request: request, origin: origin)
        #expect(session.request.verifiedBy == .domain && session.request.verifierName == "shop.example")
    }

    @Test func aClientIdThatIsNotTheLeafsIsRefused() async throws {
        let (holder, verifier, _) = try await rig()
        let request = try verifier.signedRequest(clientId: "x509_san_dns:victim.example", issuedAt: clock.now())
        #expect(await refusal(holder, request)?.code == .clientIdMismatch)
    }

    @Test func anExpiredRequestObjectIsRefused() async throws {
        let (holder, verifier, _) = try await rig()
        let request = try verifier.signedRequest(issuedAt: clock.now().addingTimeInterval(-900), lifetime: 300)
        #expect(await refusal(holder, request)?.code == .requestExpired)
    }

    // MARK: ISO/IEC TS 18013-7 Annex C

    @Test func anAnnexCRequestIsAnsweredWithASealedDeviceResponseBoundToTheOrigin() async throws {
        let (holder, verifier, id) = try await rig()
        try await trust(holder, verifier)
        let annexC = try verifier.annexCRequest()
        let session = try await holder.createDigitalCredentialsPresentationSession(request: Data(try annexC.request.jsonBytes()), origin: origin,
                                                                                   requireTrustedVerifier: true)
        #expect(session.request.protocol == .orgIsoMdoc)
        #expect(session.request.verifiedBy == .certificate && session.request.verifierName == "shop.example")
        #expect(session.matchedCredentials.first?.matchedMobileCredentials.map(\.id) == [id])
        #expect(session.matchedCredentials.first?.claims[id]?.map(\.intentToRetain) == [true])

        let answer = try await session.sendResponse(credentialIds: [id])
        let response = try verifier.openAnnexC(answer, request: annexC)
        #expect(response.status == DeviceResponse.statusOK)
        let verified = try await verifier.verify(response, transcript: annexC.sessionTranscript(origin: origin), at: clock.now())
        #expect(verified == [FakeIssuer.docType: ["org.iso.18013.5.1": ["family_name"]]])
        // Sealed for this origin only: the verifier's transcript for another origin does not open it.
        let sealed = try AnnexCResponse(try DigitalCredentialResponse(json: Array(answer))).encryptedResponse
        #expect(throws: DigitalCredentialsError.decryptionFailed) {
            _ = try AnnexCEncryption.open(sealed, recipientKey: verifier.encryptionKey, encryptionInfo: annexC.encryptionInfo.base64URL,
                                          origins: ["https://other.example"])
        }
        #expect(await holdfastError { try await session.sendResponse(credentialIds: [id]) }?.code == .validationFailed)
    }

    @Test func anAnnexCDeclineIsASealedDeviceResponseWithTheDeclinedStatus() async throws {
        let (holder, verifier, _) = try await rig()
        let annexC = try verifier.annexCRequest(readerAuth: false)
        let session = try await holder.createDigitalCredentialsPresentationSession(request: Data(try annexC.request.jsonBytes()), origin: origin)
        #expect(session.request.verifiedBy == .none && session.request.verifierName == "shop.example")
        let response = try verifier.openAnnexC(try await session.declineRequest(), request: annexC)
        #expect(response.status == 10 && response.status == DigitalCredentialsPresentationSession.declinedDeviceResponseStatus)
        #expect(response.documents.isEmpty)
    }

    @Test func aReaderAuthOverAnotherOriginIsNoAuthentication() async throws {
        let (holder, verifier, _) = try await rig()
        try await trust(holder, verifier)
        let request = Data(try verifier.annexCRequest(signedFor: "https://other.example").request.jsonBytes())
        let session = try await holder.createDigitalCredentialsPresentationSession(request: request, origin: origin)
        #expect(session.request.verifiedBy == .none && session.request.verifierName == "shop.example")
        #expect(await refusal(holder, request, requireTrustedVerifier: true)?.code == .verifierUntrusted)
        // The same reader, its readerAuth over this origin, chained to the trusted CA: `.certificate`.
        let honest = Data(try verifier.annexCRequest().request.jsonBytes())
        #expect(try await holder.createDigitalCredentialsPresentationSession(request: honest, origin: origin).request.verifiedBy == .certificate)
    }

    @Test func aReaderCertificateThatReachesNoTrustedVerifierIsNotACertificate() async throws {
        let (holder, verifier, _) = try await rig()
        let request = Data(try verifier.annexCRequest().request.jsonBytes())
        #expect(try await holder.createDigitalCredentialsPresentationSession(request: request, origin: origin).request.verifiedBy == .none)
        #expect(await refusal(holder, request, requireTrustedVerifier: true)?.code == .verifierUntrusted)
    }

    @Test func anEncryptionInfoWithAShortNonceIsRefused() async throws {
        let (holder, verifier, _) = try await rig()
        let valid = try verifier.annexCRequest(readerAuth: false)
        let point = Array(verifier.encryptionKey.publicKey.x963Representation)
        let key = try COSEKey(curve: .p256, x: Array(point[1..<33]), y: Array(point[33...]))
        let info = CBOR.array([.text("dcapi"), .map([.init("nonce", .bytes(Array(repeating: 7, count: 8))), .init("recipientPublicKey", key.cbor)])])
            .encoded(deterministic: true)
        let request = DigitalCredentialRequest(protocol: .orgIsoMdoc, data: ["deviceRequest": .string(valid.deviceRequestBase64URL),
                                                                           "encryptionInfo": .string(Base64URL.encode(info))])
        let error = await refusal(holder, Data(try request.jsonBytes()))
        #expect(error?.code == .requestInvalid && error?.message.contains("NONCE_TOO_SHORT") == true, "\(String(describing: error))")
        // The same with 16 bytes is accepted.
        let long = CBOR.array([.text("dcapi"), .map([.init("nonce", .bytes(Array(repeating: 7, count: 16))), .init("recipientPublicKey", key.cbor)])])
            .encoded(deterministic: true)
        let accepted = DigitalCredentialRequest(protocol: .orgIsoMdoc, data: ["deviceRequest": .string(valid.deviceRequestBase64URL),
                                                                            "encryptionInfo": .string(Base64URL.encode(long))])
        _ = try await holder.createDigitalCredentialsPresentationSession(request: Data(try accepted.jsonBytes()), origin: origin)
    }

    @Test func anEncryptionInfoWithoutAP256KeyIsRefused() async throws {
        let (holder, verifier, _) = try await rig()
        let valid = try verifier.annexCRequest(readerAuth: false)
        let point = Array(P384.KeyAgreement.PrivateKey().publicKey.x963Representation)
        let key = try COSEKey(curve: .p384, x: Array(point[1..<49]), y: Array(point[49...]))
        let info = CBOR.array([.text("dcapi"), .map([.init("nonce", .bytes(Array(repeating: 7, count: 16))), .init("recipientPublicKey", key.cbor)])])
            .encoded(deterministic: true)
        let request = DigitalCredentialRequest(protocol: .orgIsoMdoc, data: ["deviceRequest": .string(valid.deviceRequestBase64URL),
                                                                           "encryptionInfo": .string(Base64URL.encode(info))])
        let error = await refusal(holder, Data(try request.jsonBytes()))
        #expect(error?.code == .requestInvalid && error?.message.contains("RECIPIENT_KEY_UNSUPPORTED") == true, "\(String(describing: error))")
    }

    @Test func aSignedRequestWithoutExpectedOriginsIsRefused() async throws {
        let (holder, verifier, _) = try await rig()
        var members = try verifier.parameters()
        for absent in ["response_uri", "state", "aud"] { members[absent] = .null }
        let jws = try verifier.pki.requestObject(clientId: verifier.pki.x509Hash, issuedAt: clock.now(), extra: members)
        let request = Data(try OpenID4VPDCAPIRequest.signed(requestObject: jws).request.jsonBytes())
        #expect(await refusal(holder, request)?.code == .requestInvalid)
    }

    @Test func aResponseModeOtherThanDCAPIJWTIsRefused() async throws {
        let (holder, verifier, _) = try await rig()
        for mode in ["dc_api", "direct_post.jwt"] {
            var parameters = try verifier.parameters()
            parameters["response_mode"] = .string(mode)
            let request = Data(try OpenID4VPDCAPIRequest.unsigned(parameters: parameters).request.jsonBytes())
            #expect(await refusal(holder, request)?.code == .requestUnsupported, "\(mode)")
        }
    }

    // MARK: what is taken

    @Test func anUnsupportedProtocolIsRefused() async throws {
        let (holder, _, _) = try await rig()
        let request = DigitalCredentialRequest(protocol: "openid4vp-v2-future", data: ["request": .string("a.b.c")])
        #expect(await refusal(holder, Data(try request.jsonBytes()))?.code == .requestUnsupported)
        let digital = DigitalCredentialRequestOptions(requests: [request, DigitalCredentialRequest(protocol: "org-iso-mdoc-v9", data: [:])])
        #expect(await refusal(holder, Data(try digital.jsonBytes()))?.code == .requestUnsupported)
    }

    @Test func theFirstSupportedRequestOfTheDigitalObjectIsTaken() async throws {
        let (holder, verifier, _) = try await rig()
        let unknown = DigitalCredentialRequest(protocol: "openid4vp-v2-future", data: [:])
        let annexC = try verifier.annexCRequest(readerAuth: false)
        let unsigned = try DigitalCredentialRequest(json: Array(try verifier.unsignedRequest()))
        let digital = DigitalCredentialRequestOptions(requests: [unknown, annexC.request, unsigned])
        let whole = Data(try DigitalCredentialsJSONObject.digital(digital))
        for request in [Data(try digital.jsonBytes()), whole] {
            #expect(try await holder.createDigitalCredentialsPresentationSession(request: request, origin: origin).request.protocol == .orgIsoMdoc)
        }
    }

    @Test func nothingMatchingNamesWhatIsMissing() async throws {
        let (holder, verifier, _) = try await rig()
        let request = Data(try verifier.annexCRequest(readerAuth: false, docType: "org.example.other").request.jsonBytes())
        let session = try await holder.createDigitalCredentialsPresentationSession(request: request, origin: origin)
        #expect(session.matchedCredentials.first?.matchedMobileCredentials.isEmpty == true)
        #expect(session.credentialNotFound?.code == .credentialNotFound)
        #expect(session.credentialNotFound?.missing?.isEmpty == false)
        // The person can still say no: a decline the page reads.
        #expect(try verifier.openAnnexC(try await session.declineRequest(), request: try AnnexCRequest(
            try DigitalCredentialRequest(json: Array(request)))).status == DigitalCredentialsPresentationSession.declinedDeviceResponseStatus)
    }
}

/// `{"digital": {"requests": […]}}`, the options object a page passes to `navigator.credentials.get`.
enum DigitalCredentialsJSONObject {
    static func digital(_ options: DigitalCredentialRequestOptions) throws -> [UInt8] {
        try JSONValue.object(["digital": options.jsonValue]).jsonBytes()
    }
}
