import CBOR
import COSE
import Crypto
import Foundation
import HoldfastProtocol
@testable import HoldfastSDK
import JOSE
import MDoc
import StatusList
import Testing
import X509

/// An OpenID4VCI issuer at https://issuer.test as an `HTTPTransport`, which can be told to misbehave: a credential
/// bound to another key, tampered, signed under another IACA, and the protocol's retry answers.
actor FakeIssuer {
    enum Misbehaviour: Sendable { case none, otherDeviceKey, tamperedValue, untrustedSigner, wrongDocType }

    static let base = "https://issuer.test"
    static let docType = "org.iso.18013.5.1.mDL"
    let iacaKey = P256.Signing.PrivateKey()
    let signerKey = P256.Signing.PrivateKey()
    let iaca: Certificate
    let signerDER: [UInt8]
    let clock: ManualClock
    var misbehaviour = Misbehaviour.none
    /// The misbehaviour applies to one credential response only.
    var misbehaveOnce = false
    /// A `sub` the status list token carries instead of its URI.
    var statusSubject: String?
    var demandDPoPNonce = false
    var refuseFirstNonce = false
    var offerByReference: [String: String] = [:]
    /// Issuer metadata served instead of the usual document.
    var metadataOverride: String?
    /// Credentials carry a status reference to /status/1 (index 3), served as a CWT after `statusDelay`.
    var withStatus = false
    var statusDelay: Duration = .zero
    var revoked = false
    /// The status list endpoint answers 503 (a status that cannot be established online).
    var statusUnavailable = false
    var publishAggregation = false
    private(set) var requests: [TransportRequest] = []
    private var nonceCounter = 0

    init(clock: ManualClock) throws {
        self.clock = clock
        let start = clock.now()
        iaca = try MDocCertificates.iaca(key: iacaKey, subject: try MDocCertificates.name(commonName: "Issuer Test IACA", country: "ZZ"),
                                         notBefore: start.addingTimeInterval(-86_400), notAfter: start.addingTimeInterval(365 * 86_400))
        let signer = try MDocCertificates.signer(publicKey: signerKey.publicKey, subject: try MDocCertificates.name(commonName: "Issuer Test DS", country: "ZZ"),
                                                 iaca: iaca, iacaKey: iacaKey, notBefore: start.addingTimeInterval(-3_600),
                                                 notAfter: start.addingTimeInterval(300 * 86_400))
        signerDER = try MDocCertificates.der(signer)
    }

    var iacaPEM: String { (try? iaca.serializeAsPEM().pemString) ?? "" }

    func set(_ misbehaviour: Misbehaviour, once: Bool = false) {
        self.misbehaviour = misbehaviour
        misbehaveOnce = once
    }
    func setStatusSubject(_ subject: String?) { statusSubject = subject }
    func enableStatus(delay: Duration = .zero, aggregation: Bool = false) {
        withStatus = true
        statusDelay = delay
        publishAggregation = aggregation
    }
    func setRevoked(_ value: Bool) { revoked = value }
    func setStatusUnavailable(_ value: Bool) { statusUnavailable = value }
    func setDemandDPoPNonce(_ value: Bool) { demandDPoPNonce = value }
    func setRefuseFirstNonce(_ value: Bool) { refuseFirstNonce = value }
    func publish(offer: String, at path: String) { offerByReference[path] = offer }
    func serve(metadata: String) { metadataOverride = metadata }
    func count(_ path: String) -> Int { requests.filter { $0.url.path == path }.count }

    static func offerJSON(code: String = "code-1", txCode: Bool = false) -> String {
        let tx = txCode ? #","tx_code":{"length":4,"input_mode":"numeric","description":"SMS"}"# : ""
        return #"{"credential_issuer":"\#(base)","credential_configuration_ids":["mdl"],"grants":{"urn:ietf:params:oauth:grant-type:pre-authorized_code":{"pre-authorized_code":"\#(code)"\#(tx)}}}"#
    }

    static func offerURI(_ json: String = offerJSON()) -> String {
        "openid-credential-offer://?credential_offer=" + (json.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? json)
    }

    func handle(_ request: TransportRequest) async throws -> TransportResponse {
        requests.append(request)
        switch (request.method, request.url.path) {
        case ("GET", "/.well-known/openid-credential-issuer") where metadataOverride != nil:
            return Self.json(metadataOverride ?? "")
        case ("GET", "/.well-known/openid-credential-issuer") where publishAggregation:
            return Self.json(##"{"credential_issuer":"\##(Self.base)","credential_endpoint":"\##(Self.base)/credential","nonce_endpoint":"\##(Self.base)/nonce","status_list_aggregation_endpoint":"\##(Self.base)/status-lists","credential_configurations_supported":{"mdl":{"format":"mso_mdoc","doctype":"\##(Self.docType)"}}}"##)
        case ("GET", "/status-lists"):
            return Self.json(#"{"status_lists":["\#(Self.base)/status/1","\#(Self.base)/status/2"]}"#)
        case ("GET", "/status/1"), ("GET", "/status/2"):
            if statusDelay > .zero { try await Task.sleep(for: statusDelay) }
            if statusUnavailable { return TransportResponse(status: 503) }
            var list = try StatusList(bits: 2, count: 16)
            if revoked { try list.setStatus(1, at: 3) }
            let token = StatusListToken(subject: statusSubject ?? Self.base + request.url.path, issuedAt: clock.now(), expiresAt: clock.now().addingTimeInterval(3_600),
                                        timeToLive: 600, list: list)
            return TransportResponse(status: 200, headers: ["Content-Type": StatusListToken.cwtType],
                                     body: Data(try token.cwt(signer: COSESigningKey.p256(signerKey), certificateChain: [signerDER])))
        case ("GET", "/.well-known/openid-credential-issuer"):
            return Self.json(##"{"credential_issuer":"\##(Self.base)","credential_endpoint":"\##(Self.base)/credential","nonce_endpoint":"\##(Self.base)/nonce","display":[{"name":"Issuer Test"}],"credential_configurations_supported":{"mdl":{"format":"mso_mdoc","doctype":"\##(Self.docType)","credential_metadata":{"display":[{"name":"Test licence","background_color":"#000000"}],"claims":[{"path":["org.iso.18013.5.1","family_name"]},{"path":["org.iso.18013.5.1","birth_date"]}]}}}}"##)
        case ("GET", "/.well-known/oauth-authorization-server"):
            return Self.json(#"{"issuer":"\#(Self.base)","token_endpoint":"\#(Self.base)/token"}"#)
        case ("GET", let path) where offerByReference[path] != nil:
            return Self.json(offerByReference[path] ?? "")
        case ("POST", "/token"):
            guard request.header("OAuth-Client-Attestation") != nil, request.header("OAuth-Client-Attestation-PoP") != nil,
                  let dpop = request.header("DPoP") else { return Self.error(401, "invalid_client") }
            if demandDPoPNonce, (try? JWTClaims(payload: JWS(compactSerialization: dpop).payload))?.additionalClaims["nonce"] == nil {
                return TransportResponse(status: 400, headers: ["DPoP-Nonce": "dpop-nonce-1", "Content-Type": "application/json"],
                                         body: Data(#"{"error":"use_dpop_nonce"}"#.utf8))
            }
            let form = String(decoding: request.body ?? Data(), as: UTF8.self)
            guard form.contains("pre-authorized_code=code-1") else { return Self.error(400, "invalid_grant") }
            return Self.json(#"{"access_token":"access-1","token_type":"DPoP","expires_in":300}"#)
        case ("POST", "/nonce"):
            nonceCounter += 1
            return Self.json(#"{"c_nonce":"nonce-\#(nonceCounter)"}"#)
        case ("POST", "/credential"):
            return try credential(request)
        default:
            return TransportResponse(status: 404)
        }
    }

    private func credential(_ request: TransportRequest) throws -> TransportResponse {
        guard request.header("Authorization") == "DPoP access-1", request.header("DPoP") != nil else { return Self.error(401, "invalid_token") }
        let body = try JSONDecoder().decode(JSONValue.self, from: request.body ?? Data())
        guard let proof = body.objectValue?["proofs"]?.objectValue?["jwt"]?.arrayValue?.first?.stringValue else {
            return Self.error(400, "invalid_proof")
        }
        let jws = try JWS(compactSerialization: proof)
        guard jws.header.typ == "openid4vci-proof+jwt", let jwk = try jws.header.jwk() else { return Self.error(400, "invalid_proof") }
        try jws.verify(with: try JWSVerificationKey(jwk: jwk), allowedAlgorithms: [.es256])
        let claims = try JWTClaims(payload: jws.payload)
        guard claims.aud == [Self.base], let nonce = claims.additionalClaims["nonce"]?.stringValue else { return Self.error(400, "invalid_proof") }
        if refuseFirstNonce, nonce == "nonce-1" { return Self.error(400, "invalid_nonce") }
        var deviceKey = try COSEKey(curve: .p256, x: Base64URL.decode(jwk.x ?? "") ?? [], y: Base64URL.decode(jwk.y ?? "") ?? [])
        if misbehaviour == .otherDeviceKey { deviceKey = COSEKey(publicKey: P256.Signing.PrivateKey().publicKey) }
        var signer = signerKey, chain = [signerDER]
        if misbehaviour == .untrustedSigner {
            let strangerKey = P256.Signing.PrivateKey(), strangerIACAKey = P256.Signing.PrivateKey()
            let start = clock.now()
            let strangerIACA = try MDocCertificates.iaca(key: strangerIACAKey, subject: try MDocCertificates.name(commonName: "Stranger", country: "ZZ"),
                                                         notBefore: start.addingTimeInterval(-86_400), notAfter: start.addingTimeInterval(86_400))
            chain = [try MDocCertificates.der(try MDocCertificates.signer(publicKey: strangerKey.publicKey,
                                                                          subject: try MDocCertificates.name(commonName: "Stranger DS", country: "ZZ"),
                                                                          iaca: strangerIACA, iacaKey: strangerIACAKey,
                                                                          notBefore: start.addingTimeInterval(-3_600), notAfter: start.addingTimeInterval(86_400)))]
            signer = strangerKey
        }
        let now = Date(timeIntervalSince1970: clock.now().timeIntervalSince1970.rounded(.down))
        let issued = try MDocIssuer(signer: COSESigningKey.p256(signer), certificateChain: chain).issue(
            docType: misbehaviour == .wrongDocType ? "org.example.other" : Self.docType,
            nameSpaces: [.init(name: "org.iso.18013.5.1", elements: [("family_name", .text("Doe")), ("birth_date", .tagged(1004, .text("1990-02-28")))])],
            deviceKey: deviceKey, validity: .init(signed: now, validFrom: now, validUntil: now.addingTimeInterval(86_400 * 30)),
            status: withStatus ? .init(index: 3, uri: Self.base + "/status/1") : nil)
        var bytes = issued.encoded()
        if misbehaviour == .tamperedValue, let range = Self.range(of: Array("Doe".utf8), in: bytes) {
            bytes.replaceSubrange(range, with: Array("Dow".utf8))
        }
        if misbehaveOnce { misbehaviour = .none }
        return Self.json(#"{"credentials":[{"credential":"\#(Base64URL.encode(bytes))"}]}"#)
    }

    static func range(of needle: [UInt8], in haystack: [UInt8]) -> Range<Int>? {
        guard haystack.count >= needle.count else { return nil }
        for start in 0...(haystack.count - needle.count) where Array(haystack[start..<start + needle.count]) == needle {
            return start..<start + needle.count
        }
        return nil
    }

    static func json(_ text: String) -> TransportResponse {
        TransportResponse(status: 200, headers: ["Content-Type": "application/json"], body: Data(text.utf8))
    }

    static func error(_ status: Int, _ code: String) -> TransportResponse {
        TransportResponse(status: status, headers: ["Content-Type": "application/json"], body: Data(#"{"error":"\#(code)"}"#.utf8))
    }
}

/// The tenant for tethering, the issuer for the rest.
struct TenantAndIssuer: HTTPTransport {
    let tenant: FakeTenant
    let issuer: FakeIssuer
    var verifier: ScriptedVerifier?

    func send(_ request: TransportRequest) async throws -> TransportResponse {
        switch request.url.host {
        case "issuer.test": try await issuer.handle(request)
        case "verifier.example": try await (verifier?.handle(request) ?? TransportResponse(status: 404))
        default: try await tenant.send(request)
        }
    }
}

@Suite struct CredentialClaimTests {
    let clock = ManualClock(Date(timeIntervalSince1970: 1_800_000_000))
    let storage = MemorySecureStorage()
    let tenant: FakeTenant
    let issuer: FakeIssuer
    let secureArea: SoftwareSecureArea
    let holder: MobileCredentialHolder

    init() async throws {
        tenant = FakeTenant(deviceClock: clock)
        issuer = try FakeIssuer(clock: clock)
        secureArea = SoftwareSecureArea(storage: storage)
        holder = MobileCredentialHolder(seams: PlatformSeams(secureStorage: storage, secureArea: secureArea,
                                                             transport: TenantAndIssuer(tenant: tenant, issuer: issuer), clock: clock,
                                                             sleeper: RecordingSleeper(), jitter: { 1.0 },
                                                             tetheringScheduler: ManualTetheringScheduler()))
        try await holder.initialize(platformConfiguration: PlatformConfiguration(tenantHost: "tenant.test", applicationId: "app-1"))
        _ = try await holder.registerDevice()
    }

    func trustIssuer() async throws {
        _ = try await holder.addTrustedIssuerCertificates([await issuer.iacaPEM])
    }

    func credentialKeys() async -> [String] {
        await storage.keys().filter { $0.contains("holdfast.credential-key.") }
    }

    @Test func anOfferIsReadWithTheIssuersMetadata() async throws {
        let offer = try await holder.retrieveCredentialOffer(uri: FakeIssuer.offerURI(FakeIssuer.offerJSON(txCode: true)))
        #expect(offer.issuer == FakeIssuer.base && offer.issuerName == "Issuer Test" && offer.issuerHost == "issuer.test")
        #expect(offer.transactionCode == TransactionCodeRequirement(length: 4, inputMode: "numeric", description: "SMS"))
        #expect(offer.credentials.map(\.docType) == [FakeIssuer.docType])
        #expect(offer.credentials.first?.claims == ["org.iso.18013.5.1": ["family_name", "birth_date"]])
        #expect(offer.credentials.first?.branding == CredentialBranding(name: "Test licence", backgroundColor: "#000000"))
    }

    @Test func anOfferByReferenceIsFetched() async throws {
        await issuer.publish(offer: FakeIssuer.offerJSON(), at: "/offers/1")
        let offer = try await holder.retrieveCredentialOffer(uri: "openid-credential-offer://?credential_offer_uri=https%3A%2F%2Fissuer.test%2Foffers%2F1")
        #expect(offer.credentials.count == 1)
        #expect(await issuer.count("/offers/1") == 1)
    }

    @Test func malformedOffersAreNamed() async throws {
        for uri in ["openid-credential-offer://?nothing=1", "openid-credential-offer://?credential_offer=%5B%5D",
                    "openid-credential-offer://?credential_offer_uri=http%3A%2F%2Fissuer.test%2Fo",
                    FakeIssuer.offerURI(#"{"credential_issuer":"https://issuer.test","credential_configuration_ids":["mdl"],"grants":{"authorization_code":{}}}"#)] {
            #expect(await holdfastError { try await holder.retrieveCredentialOffer(uri: uri) }?.code == .credentialOfferInvalid, "\(uri)")
        }
    }

    /// OpenID4VCI 1.0 §12.2.4: metadata without a required member is refused, naming it.
    @Test func metadataWithoutItsCredentialEndpointIsNamed() async throws {
        await issuer.serve(metadata: #"{"credential_issuer":"https://issuer.test","credential_configurations_supported":{"mdl":{"format":"mso_mdoc","doctype":"org.iso.18013.5.1.mDL"}}}"#)
        let error = await holdfastError { try await holder.retrieveCredentialOffer(uri: FakeIssuer.offerURI()) }
        #expect(error?.code == .issuerMetadataInvalid)
        #expect(error?.message.contains("credential_endpoint is required") == true, "\(String(describing: error))")
    }

    /// Drafts before OpenID4VCI 1.0 put `display` and `claims` (namespace → element → details) at the configuration's
    /// top level: an offer from such an issuer still shows its branding and claims.
    @Test func aDraftIssuersDisplayAndClaimsAreRead() async throws {
        await issuer.serve(metadata: ##"{"credential_issuer":"https://issuer.test","credential_endpoint":"https://issuer.test/credential","credential_configurations_supported":{"mdl":{"format":"mso_mdoc","doctype":"org.iso.18013.5.1.mDL","display":[{"name":"Draft licence","text_color":"#ffffff"}],"claims":{"org.iso.18013.5.1":{"given_name":{},"family_name":{}}}}}}"##)
        let offer = try await holder.retrieveCredentialOffer(uri: FakeIssuer.offerURI())
        #expect(offer.credentials.first?.branding == CredentialBranding(name: "Draft licence", textColor: "#ffffff"))
        #expect(offer.credentials.first?.claims == ["org.iso.18013.5.1": ["family_name", "given_name"]])
    }

    @Test func aClaimedCredentialIsVerifiedStoredAndReadBack() async throws {
        try await trustIssuer()
        await issuer.setDemandDPoPNonce(true)
        await issuer.setRefuseFirstNonce(true)
        let offer = try await holder.retrieveCredentialOffer(uri: FakeIssuer.offerURI())
        let claimed = try await holder.claimCredentials(offer: offer)
        #expect(claimed.count == 1)
        #expect(await issuer.count("/token") == 2)       // the DPoP nonce round
        #expect(await issuer.count("/credential") == 2)  // the invalid_nonce round
        #expect(await credentialKeys().count == 1)
        let credential = try await holder.getCredential(credentialId: claimed[0].id)
        #expect(credential.verificationResult == .success)
        #expect(credential.status == nil)  // no status reference
        #expect(credential.claims["org.iso.18013.5.1"]?["family_name"] == .string("Doe"))
        #expect(credential.metadata.issuerInfo.commonName == "Issuer Test DS")
        // The instance key was not used as the credential key.
        let deviceKey = try IssuerSigned(decoding: credential.issuerSigned).mso.deviceKey
        let state = try #require(try await holder.registrationState())
        let instanceKey = try #require(try await secureArea.publicKey(alias: state.keyAlias))
        #expect(deviceKey.x + deviceKey.y != Array(instanceKey.rawRepresentation))
        // Verified once, not per call; again when the trusted certificates change.
        _ = try await holder.getCredential(credentialId: claimed[0].id)
        #expect(await holder.credentials.issuerVerifications == 1)
        _ = try await holder.addTrustedIssuerCertificates([await issuer.iacaPEM])
        #expect(try await holder.getCredential(credentialId: claimed[0].id).verificationResult == .success)
        #expect(await holder.credentials.issuerVerifications == 2)
        // Expired later, by the clock.
        clock.advance(by: 86_400 * 31)
        #expect(try await holder.getCredential(credentialId: claimed[0].id).verificationResult == .failure(.expired))
        // An IACA no longer trusted: refused from the next call on.
        clock.advance(by: -86_400 * 31)
        try await holder.removeTrustedIssuerCertificate(id: try #require(try await holder.getTrustedIssuerCertificates().first).id)
        #expect(try await holder.getCredential(credentialId: claimed[0].id).verificationResult == .failure(.untrustedIssuer))
        try await holder.deleteCredential(id: claimed[0].id)
        #expect(await credentialKeys().isEmpty)
    }

    @Test(arguments: [(FakeIssuer.Misbehaviour.otherDeviceKey, HoldfastErrorCode.credentialInvalid),
                      (.tamperedValue, .credentialInvalid), (.wrongDocType, .credentialInvalid), (.untrustedSigner, .untrustedIssuer)])
    func aBadCredentialIsRefusedAndLeavesNothing(_ misbehaviour: FakeIssuer.Misbehaviour, _ code: HoldfastErrorCode) async throws {
        try await trustIssuer()
        await issuer.set(misbehaviour)
        let offer = try await holder.retrieveCredentialOffer(uri: FakeIssuer.offerURI())
        let error = await holdfastError { try await holder.claimCredentials(offer: offer) }
        #expect(error?.code == code, "\(String(describing: error))")
        #expect(try await holder.getCredentials().isEmpty)
        #expect(await credentialKeys().isEmpty)
    }

    @Test func theIssuersErrorsAreNamed() async throws {
        try await trustIssuer()
        let offer = try await holder.retrieveCredentialOffer(uri: FakeIssuer.offerURI(FakeIssuer.offerJSON(code: "used-code")))
        let error = await holdfastError { try await holder.claimCredentials(offer: offer) }
        #expect(error?.code == .issuerError && error?.issuerError == "invalid_grant")
        let needsCode = try await holder.retrieveCredentialOffer(uri: FakeIssuer.offerURI(FakeIssuer.offerJSON(txCode: true)))
        #expect(await holdfastError { try await holder.claimCredentials(offer: needsCode) }?.code == .transactionCodeRequired)
        #expect(await issuer.count("/token") == 1)
    }

    /// One list for every credential on it: 100 parallel getCredential calls make one fetch (docs/sdk.md "Holder: status").
    @Test func parallelChecksOfCredentialsOnOneListMakeOneFetch() async throws {
        try await trustIssuer()
        await issuer.enableStatus(delay: .milliseconds(200))
        var ids: [String] = []
        for _ in 0..<2 {
            ids += try await holder.claimCredentials(offer: try await holder.retrieveCredentialOffer(uri: FakeIssuer.offerURI())).map(\.id)
        }
        let (holder, pair) = (self.holder, ids)
        let results = try await withThrowingTaskGroup(of: CredentialVerificationResult.self) { group in
            for index in 0..<100 {
                group.addTask { try await holder.getCredential(credentialId: pair[index % 2]).verificationResult }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(results.count == 100 && results.allSatisfy { $0 == .success })
        #expect(await issuer.count("/status/1") == 1)
        // Revoked at the issuer: seen after the ttl (600 s), by both.
        await issuer.setRevoked(true)
        clock.advance(by: 599)
        #expect(try await holder.getCredential(credentialId: ids[0]).verificationResult == .success)
        clock.advance(by: 1)
        #expect(try await holder.getCredential(credentialId: ids[0]).verificationResult == .failure(.statusRevoked))
        #expect(try await holder.getCredential(credentialId: ids[1]).verificationResult == .failure(.statusRevoked))
        #expect(await issuer.count("/status/1") == 2)
    }

    /// docs/sdk.md "Holder: credentials": what can be checked is checked before the pre-authorized code is redeemed, so a
    /// wallet that trusts no IACA leaves the offer usable, and claims it once the IACA is trusted.
    @Test func aWalletTrustingNoIACARefusesBeforeRedeemingTheCode() async throws {
        let offer = try await holder.retrieveCredentialOffer(uri: FakeIssuer.offerURI())
        let refused = await holdfastError { try await holder.claimCredentials(offer: offer) }
        #expect(refused?.code == .untrustedIssuer, "\(String(describing: refused))")
        #expect(await issuer.count("/token") == 0)
        #expect(await issuer.count("/credential") == 0)
        #expect(await credentialKeys().isEmpty)
        try await trustIssuer()
        #expect(try await holder.claimCredentials(offer: offer).count == 1)
        #expect(await issuer.count("/token") == 1)
    }

    /// docs/sdk.md "Holder: credentials": a credential refused as invalid is asked for once more with the same access token.
    @Test func aCredentialRefusedAsInvalidIsAskedForOnceMoreWithTheSameToken() async throws {
        try await trustIssuer()
        await issuer.set(.otherDeviceKey, once: true)
        let claimed = try await holder.claimCredentials(offer: try await holder.retrieveCredentialOffer(uri: FakeIssuer.offerURI()))
        #expect(claimed.count == 1)
        #expect(await issuer.count("/token") == 1)
        #expect(await issuer.count("/credential") == 2)
        #expect(await credentialKeys().count == 1)
        #expect(try await holder.getCredential(credentialId: claimed[0].id).verificationResult == .success)
    }

    /// docs/sdk.md "Holder: status": `refreshStatus` fetches before the cached token's ttl has passed, and a fetched token
    /// still goes through the checks (here its `sub`), a refused one leaving the cache as it was.
    @Test func refreshStatusFetchesNowWithinTheTokenChecks() async throws {
        try await trustIssuer()
        await issuer.enableStatus()
        let claimed = try #require(try await holder.claimCredentials(offer: try await holder.retrieveCredentialOffer(uri: FakeIssuer.offerURI())).first)
        #expect(claimed.statusList == CredentialStatusListEntry(uri: FakeIssuer.base + "/status/1", idx: 3))
        #expect(try await holder.getCredential(credentialId: claimed.id).status == .valid)
        await issuer.setRevoked(true)
        // Within the ttl (600 s) an ordinary check keeps the cached token.
        clock.advance(by: 10)
        #expect(try await holder.getCredential(credentialId: claimed.id).status == .valid)
        #expect(await issuer.count("/status/1") == 1)

        // A token whose `sub` is not the URI is refused: the cached one still applies.
        await issuer.setStatusSubject(FakeIssuer.base + "/status/other")
        let refused = try #require(try await holder.refreshStatus(credentialId: claimed.id).first)
        #expect(!refused.fetched && refused.failure != nil && refused.credential.status == .valid)
        #expect(await issuer.count("/status/1") == 2)

        await issuer.setStatusSubject(nil)
        let refreshed = try #require(try await holder.refreshStatus(credentialId: claimed.id).first)
        #expect(refreshed.fetched && refreshed.failure == nil)
        #expect(refreshed.credential.status == .revoked && refreshed.credential.verificationResult == .failure(.statusRevoked))
        #expect(try await holder.refreshStatus().map(\.credential.id) == [claimed.id])
        await #expect(throws: HoldfastError.self) { _ = try await holder.refreshStatus(credentialId: "no-such-credential") }
    }

    /// A background refresh fetches every list the credentials point at, and those the issuer's aggregation
    /// endpoint names (draft-ietf-oauth-status-list §9), ahead of going offline.
    @Test func refreshStatusListsPrefetchesTheAggregatedLists() async throws {
        try await trustIssuer()
        await issuer.enableStatus(aggregation: true)
        let id = try #require(try await holder.claimCredentials(offer: try await holder.retrieveCredentialOffer(uri: FakeIssuer.offerURI())).first?.id)
        let refreshed = try await holder.refreshStatusLists()
        #expect(refreshed.refreshed == [FakeIssuer.base + "/status/1", FakeIssuer.base + "/status/2"])
        #expect(refreshed.failed.isEmpty)
        #expect(await issuer.count("/status/2") == 1)
        // Offline now: the prefetched token answers.
        #expect(try await holder.getCredential(credentialId: id, skipStatusCheck: true).verificationResult == .success)
        #expect(await issuer.count("/status/1") == 1)
    }

    /// A crash after the credential was written but before the index named it loses nothing stored before, and the
    /// half-written credential is not shown.
    @Test func aCrashBetweenTheTwoWritesLosesNothingStored() async throws {
        try await trustIssuer()
        let first = try await holder.claimCredentials(offer: try await holder.retrieveCredentialOffer(uri: FakeIssuer.offerURI()))
        await storage.failWrites(withPrefix: CredentialStore.indexKey)
        #expect(await holdfastError { try await holder.claimCredentials(offer: try await holder.retrieveCredentialOffer(uri: FakeIssuer.offerURI())) } != nil)
        await storage.failWrites(withPrefix: nil)
        let restarted = MobileCredentialHolder(seams: PlatformSeams(secureStorage: storage, secureArea: secureArea,
                                                                    transport: TenantAndIssuer(tenant: tenant, issuer: issuer), clock: clock))
        #expect(try await restarted.getCredentials().map(\.id) == first.map(\.id))
    }

    @Test func aCorruptStoreIsReportedNotEmptied() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("holdfast-sdk-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let seams = PlatformSeams.linux(stateDirectory: folder)
        let fileHolder = MobileCredentialHolder(seams: seams)
        _ = try await fileHolder.addTrustedIssuerCertificates([await issuer.iacaPEM])
        let sealed = try #require(try FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)
            .first { $0.lastPathComponent.hasSuffix(".sealed") })
        var bytes = try Data(contentsOf: sealed)
        bytes[bytes.count / 2] ^= 0xFF
        try bytes.write(to: sealed)
        let reopened = MobileCredentialHolder(seams: .linux(stateDirectory: folder))
        #expect(await holdfastError { try await reopened.getCredentials() }?.code == .secureStorageCorrupted)
        #expect(try Data(contentsOf: sealed) == bytes)  // left as it was, for recovery
    }
}

/// Claim values as JSON (docs/sdk.md "Holder: credentials").
@Suite struct ClaimJSONTests {
    @Test func cborValuesBecomeTheirJSONForms() {
        #expect(ClaimJSON.json(.tagged(1004, .text("1990-02-28"))) == .string("1990-02-28"))
        #expect(ClaimJSON.json(.tagged(0, .text("2026-01-01T00:00:00Z"))) == .string("2026-01-01T00:00:00Z"))
        #expect(ClaimJSON.json(.bytes([0, 1, 2, 3])) == .object(["$type": .string("bytes"), "value": .string("AAECAw==")]))
        #expect(ClaimJSON.json(.unsigned(42)) == .integer(42) && ClaimJSON.json(.negative(0)) == .integer(-1))
        #expect(ClaimJSON.json(.bool(true)) == .bool(true) && ClaimJSON.json(.null) == .null)
        #expect(ClaimJSON.json(.array([.text("a"), .unsigned(1)])) == .array([.string("a"), .integer(1)]))
        #expect(ClaimJSON.json(.map([CBOR.Pair(.text("code"), .text("B")), CBOR.Pair(.unsigned(7), .bool(false))]))
            == .object(["code": .string("B"), "7": .bool(false)]))
    }
}
