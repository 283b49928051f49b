import Foundation
import HoldfastAdmin
import HoldfastProtocol
@testable import HoldfastSDK
import JOSE
import OpenID4VP
import ServerTestSupport
import Testing

/// Answers 503 for the tenant's status lists and passes everything else on: a wallet that cannot establish a status
/// online.
actor StatusListBlockingTransport: HTTPTransport {
    private let inner: any HTTPTransport
    private var blocking = false

    init(_ inner: any HTTPTransport) { self.inner = inner }

    func block(_ value: Bool) { blocking = value }

    func send(_ request: TransportRequest) async throws -> TransportResponse {
        if blocking, request.url.path.hasPrefix(StatusListRoutes.Template.lists.template) { return TransportResponse(status: 503) }
        return try await inner.send(request)
    }
}

/// docs/sdk.md "Holder: presentation" and "Holder: status" against the tenant over HTTP: a credential matched by what the
/// request requires, a verifier the wallet does not trust accepted with `verifiedBy`, a request by value, the redirect
/// through the platform seam, the unknown-status policy, and a suspension seen after the status list refresh.
@Suite struct PresentationMatchingEndToEndTests {
    static let space = "org.iso.18013.5.1"

    struct Wallet {
        let holder: MobileCredentialHolder
        let network: StatusListBlockingTransport
        let opener: RecordingURLOpener
        let credentialId: String
    }

    /// A registered wallet holding one mDL (family_name, given_name, birth_date, age_over_18), trusting the tenant's
    /// IACA and, when `trustVerifiers`, its verifier CA.
    static func wallet(_ tenant: EndToEndTenant, trustVerifiers: Bool = true, blockStatus: Bool = false) async throws -> Wallet {
        try await CredentialsEndToEndTests.configure(tenant)
        _ = try await tenant.admin.updateStatusListSettings(StatusListSettings(ttlSeconds: 3_600, expSeconds: 7_200))
        let application = try await tenant.createIOSApplication()
        let storage = FileSecureStorage(directory: tenant.scratch.appendingPathComponent("matching-wallet"), applicationId: "holdfast-sdk")
        let network = StatusListBlockingTransport(URLSessionTransport(timeout: 15))
        await network.block(blockStatus)
        let opener = RecordingURLOpener()
        let holder = MobileCredentialHolder(seams: PlatformSeams(secureStorage: storage, secureArea: SoftwareSecureArea(storage: storage),
                                                                 transport: network, tetheringScheduler: ManualTetheringScheduler(),
                                                                 urlOpener: opener))
        try await holder.initialize(platformConfiguration: PlatformConfiguration(
            tenantHost: tenant.baseURL.replacingOccurrences(of: "127.0.0.1", with: "localhost"), applicationId: try #require(application.id)))
        _ = try await holder.registerDevice()
        _ = try await holder.addTrustedIssuerCertificates(try await tenant.admin.iacas().data.map(\.certificatePem))
        if trustVerifiers {
            _ = try await holder.addTrustedVerifierCertificates(try await tenant.admin.verifierCAs().data.map(\.certificatePem))
        }
        let claimed = try await holder.claimCredentials(
            offer: try await holder.retrieveCredentialOffer(uri: try await CredentialsEndToEndTests.offer(tenant, txCode: false).offerUri))
        return Wallet(holder: holder, network: network, opener: opener, credentialId: try #require(claimed.first).id)
    }

    /// A DCQL query for the mDL: family_name (retained) and `other`, both required, or — `alternative` — as claim sets
    /// [[family_name, other], [family_name]].
    static func dcqlSession(_ tenant: EndToEndTenant, other: String, alternative: Bool) async throws -> PresentationSessionCreated {
        let sets = alternative ? #","claim_sets":[["fn","other"],["fn"]]"# : ""
        let dcql = #"{"credentials":[{"id":"mdl","format":"mso_mdoc","meta":{"doctype_value":"org.iso.18013.5.1.mDL"},"claims":[{"id":"fn","path":["org.iso.18013.5.1","family_name"],"intent_to_retain":true},{"id":"other","path":["org.iso.18013.5.1","\#(other)"]}]\#(sets)}]}"#
        return try await PresentationEndToEndTests.session(tenant, #"{"protocol":"openid4vp-1.0","mode":"cross-device","query":{"dcql":\#(dcql)}}"#)
    }

    @Test(arguments: EndToEndBackend.available)
    func aCredentialIsOfferedOnlyWhenItHoldsWhatIsRequired(_ backend: EndToEndBackend) async throws {
        try await PresentationEndToEndTests.withLocalhostTenant(backend) { tenant in
            let wallet = try await Self.wallet(tenant)
            // resident_address required: the mDL, of the right docType, does not hold it.
            let required = try await Self.dcqlSession(tenant, other: "resident_address", alternative: false)
            let refused = try await wallet.holder.createOnlinePresentationSession(authorisationRequestUri: required.authorizationRequestUri,
                                                                                  requireTrustedVerifier: true)
            #expect(refused.matchedCredentials.first?.matchedMobileCredentials.isEmpty == true)
            try await refused.declineRequest()

            // As an alternative: offered, listing only the requested elements it holds, with the request's intent.
            let alternative = try await Self.dcqlSession(tenant, other: "resident_address", alternative: true)
            let session = try await wallet.holder.createOnlinePresentationSession(authorisationRequestUri: alternative.authorizationRequestUri,
                                                                                  requireTrustedVerifier: true)
            let match = try #require(session.matchedCredentials.first)
            #expect(match.matchedMobileCredentials.map(\.id) == [wallet.credentialId])
            #expect(match.claims[wallet.credentialId] == [MatchedClaim(nameSpace: Self.space, elementIdentifier: "family_name", intentToRetain: true)])
            #expect(match.matchedMobileCredentials.first?.claims == [Self.space: ["family_name"]])
            _ = try await session.sendResponse(credentialIds: [wallet.credentialId], autoRedirect: false)
            let result = try await PresentationEndToEndTests.result(tenant, alternative.sessionId)
            #expect(result.status == "verified", "\(result)")

            // Both held (age_over_18): offered with both.
            let held = try await Self.dcqlSession(tenant, other: "age_over_18", alternative: false)
            let both = try await wallet.holder.createOnlinePresentationSession(authorisationRequestUri: held.authorizationRequestUri)
            #expect(both.matchedCredentials.first?.claims[wallet.credentialId]?.map(\.elementIdentifier) == ["age_over_18", "family_name"])
            #expect(both.matchedCredentials.first?.claims[wallet.credentialId]?.map(\.intentToRetain) == [false, true])
        }
    }

    @Test(arguments: EndToEndBackend.available)
    func aVerifierTheWalletDoesNotTrustIsAcceptedAndSaysHowItWasVerified(_ backend: EndToEndBackend) async throws {
        try await PresentationEndToEndTests.withLocalhostTenant(backend) { tenant in
            let wallet = try await Self.wallet(tenant, trustVerifiers: false)
            for prefix in ["x509_hash", "x509_san_dns"] {
                let created = try await PresentationEndToEndTests.session(
                    tenant, #"{"protocol":"openid4vp-1.0","mode":"cross-device","clientIdPrefix":"\#(prefix)","query":\#(PresentationEndToEndTests.query)}"#)
                await expectHoldfastError(.verifierUntrusted) {
                    _ = try await wallet.holder.createOnlinePresentationSession(authorisationRequestUri: created.authorizationRequestUri,
                                                                                requireTrustedVerifier: true)
                }
                let session = try await wallet.holder.createOnlinePresentationSession(authorisationRequestUri: created.authorizationRequestUri,
                                                                                      requireTrustedVerifier: false)
                #expect(session.request.verifiedBy == .domain && session.request.verifierName == "localhost", "\(prefix)")
                _ = try await session.sendResponse(credentialIds: [wallet.credentialId], autoRedirect: false)
                #expect(try await PresentationEndToEndTests.result(tenant, created.sessionId).status == "verified", "\(prefix)")
            }
        }
    }

    @Test(arguments: EndToEndBackend.available)
    func aRequestByValueIsAnsweredAsOneByReference(_ backend: EndToEndBackend) async throws {
        try await PresentationEndToEndTests.withLocalhostTenant(backend) { tenant in
            let wallet = try await Self.wallet(tenant)
            for (body, scheme) in [(#"{"protocol":"openid4vp-1.0","mode":"cross-device","query":\#(PresentationEndToEndTests.query)}"#, "openid4vp"),
                                   (#"{"protocol":"18013-7-2024","mode":"cross-device","query":\#(PresentationEndToEndTests.query)}"#, "mdoc-openid4vp")] {
                let created = try await PresentationEndToEndTests.session(tenant, body)
                let byReference = try AuthorizationRequestURI(parsing: created.authorizationRequestUri)
                let fetched = try await URLSessionTransport().send(TransportRequest(method: "GET", url: try #require(URL(string: created.requestUri))))
                #expect(fetched.status == 200)
                let byValue = AuthorizationRequestURI(clientId: byReference.clientId, requestUri: nil,
                                                      request: String(decoding: fetched.body, as: UTF8.self))
                let uri = "\(scheme)://?" + byValue.queryParameters.map { "\($0.name)=\(PercentEncoding.queryValue($0.value))" }.joined(separator: "&")
                let session = try await wallet.holder.createOnlinePresentationSession(authorisationRequestUri: uri, requireTrustedVerifier: true)
                #expect(session.request.verifiedBy == .certificate)
                _ = try await session.sendResponse(credentialIds: [wallet.credentialId], autoRedirect: false)
                #expect(try await PresentationEndToEndTests.result(tenant, created.sessionId).status == "verified", "\(body)")
            }
        }
    }

    @Test(arguments: EndToEndBackend.available)
    func autoRedirectOpensTheVerifiersRedirectThroughThePlatformSeam(_ backend: EndToEndBackend) async throws {
        try await PresentationEndToEndTests.withLocalhostTenant(backend) { tenant in
            let wallet = try await Self.wallet(tenant)
            let body = #"{"protocol":"openid4vp-1.0","mode":"same-device","clientIdPrefix":"x509_san_dns","redirectUri":"https://shop.example/done","query":\#(PresentationEndToEndTests.query)}"#
            let first = try await wallet.holder.createOnlinePresentationSession(
                authorisationRequestUri: try await PresentationEndToEndTests.session(tenant, body).authorizationRequestUri)
            let redirect = try #require(try await first.sendResponse(credentialIds: [wallet.credentialId], autoRedirect: true))
            #expect(redirect.hasPrefix("https://shop.example/done?response_code="))
            #expect(wallet.opener.opened.map(\.absoluteString) == [redirect])
            // false: the URI is returned, nothing is opened.
            let second = try await wallet.holder.createOnlinePresentationSession(
                authorisationRequestUri: try await PresentationEndToEndTests.session(tenant, body).authorizationRequestUri)
            let returned = try await second.sendResponse(credentialIds: [wallet.credentialId], autoRedirect: false)
            #expect(returned?.hasPrefix("https://shop.example/done?response_code=") == true && returned != redirect)
            #expect(wallet.opener.opened.count == 1)
        }
    }

    @Test(arguments: EndToEndBackend.available)
    func aCredentialOfUnknownStatusIsOfferedAsThePolicySays(_ backend: EndToEndBackend) async throws {
        try await PresentationEndToEndTests.withLocalhostTenant(backend) { tenant in
            // The status list was never reachable: unknown, never checked online.
            let wallet = try await Self.wallet(tenant, blockStatus: true)
            let credential = try await wallet.holder.getCredential(credentialId: wallet.credentialId)
            #expect(credential.verificationResult == .failure(.statusUnknown) && credential.statusCheckedAt == nil)
            let policies: [(UnknownStatusPolicy, Bool)] = [(.allowWithWarning, true), (.exclude, false), (.allowIfCheckedWithin(seconds: 3_600), false)]
            for (policy, offered) in policies {
                let created = try await PresentationEndToEndTests.session(
                    tenant, #"{"protocol":"openid4vp-1.0","mode":"cross-device","query":\#(PresentationEndToEndTests.query)}"#)
                let session = try await wallet.holder.createOnlinePresentationSession(authorisationRequestUri: created.authorizationRequestUri,
                                                                                      unknownStatusPolicy: policy)
                let match = try #require(session.matchedCredentials.first)
                #expect(match.matchedMobileCredentials.map(\.id) == (offered ? [wallet.credentialId] : []), "\(policy)")
                #expect(match.unknownStatus == (offered ? [wallet.credentialId] : []), "\(policy)")
            }
            // Reachable again: checked online now, valid, offered without a warning under the strictest policy.
            await wallet.network.block(false)
            let before = Date()
            let checked = try await wallet.holder.getCredential(credentialId: wallet.credentialId)
            #expect(checked.verificationResult == .success && (checked.statusCheckedAt ?? .distantPast) >= before.addingTimeInterval(-1))
            let created = try await PresentationEndToEndTests.session(
                tenant, #"{"protocol":"openid4vp-1.0","mode":"cross-device","query":\#(PresentationEndToEndTests.query)}"#)
            let session = try await wallet.holder.createOnlinePresentationSession(authorisationRequestUri: created.authorizationRequestUri,
                                                                                  unknownStatusPolicy: .exclude)
            #expect(session.matchedCredentials.first?.matchedMobileCredentials.map(\.id) == [wallet.credentialId])
            #expect(session.matchedCredentials.first?.unknownStatus.isEmpty == true)
        }
    }

    /// docs/sdk.md "Holder: status": suspended at the tenant through the admin API, the wallet sees it through
    /// `getCredential` once its status lists are refreshed, and no longer offers it.
    @Test(arguments: EndToEndBackend.available)
    func aSuspensionAtTheTenantReachesGetCredentialAfterTheStatusListRefresh(_ backend: EndToEndBackend) async throws {
        try await PresentationEndToEndTests.withLocalhostTenant(backend) { tenant in
            let wallet = try await Self.wallet(tenant)
            let valid = try await wallet.holder.getCredential(credentialId: wallet.credentialId)
            #expect(valid.verificationResult == .success && valid.status == .valid)
            let firstCheck = try #require(valid.statusCheckedAt)

            let issuedId = try await CredentialsEndToEndTests.firstIssuedId(tenant)
            _ = try await tenant.admin.setCredentialStatus(id: issuedId, CredentialStatusChange(status: "suspended"))
            // Not yet refreshed (the cached token is within its ttl of an hour): still valid.
            #expect(try await wallet.holder.getCredential(credentialId: wallet.credentialId).status == .valid)

            let refreshed = try await wallet.holder.refreshStatusLists()
            #expect(refreshed.failed.isEmpty && !refreshed.refreshed.isEmpty, "\(refreshed)")
            let suspended = try await wallet.holder.getCredential(credentialId: wallet.credentialId, skipStatusCheck: true)
            #expect(suspended.verificationResult == .failure(.statusSuspended), "\(suspended.verificationResult)")
            #expect(suspended.status == .suspended)
            #expect((suspended.statusCheckedAt ?? .distantPast) >= firstCheck)

            let created = try await PresentationEndToEndTests.session(
                tenant, #"{"protocol":"openid4vp-1.0","mode":"cross-device","query":\#(PresentationEndToEndTests.query)}"#)
            let session = try await wallet.holder.createOnlinePresentationSession(authorisationRequestUri: created.authorizationRequestUri)
            #expect(session.matchedCredentials.first?.matchedMobileCredentials.isEmpty == true)
        }
    }
}
