import Foundation
import HoldfastAdmin
import HoldfastProtocol
@testable import HoldfastSDK
import JOSE
import MDoc
import OpenID4VP
import ServerTestSupport
import Testing
import X509

/// A result never mixes two credentials (docs/server-api.md "Verifier"): the tenant's verifier answered over HTTP with two
/// genuine mDLs of one docType — Jane Doe's showing her names, Richard Roe's showing `age_over_18` — for a DCQL
/// credential query with `multiple: true`, keeps two `credentials` entries, each with its own claims, and no
/// `claims` by docType; a one-document result keeps `claims` beside its one entry. `holdfast admin presentations
/// result` prints the same.
///
/// The SDK sends one credential per request (`sendResponse` refuses two for one credential query), so the two-document
/// response is assembled from the wallet's own credentials and device keys, as `PresentationRequirementEndToEndTests`
/// does.
@Suite struct PresentationCredentialsEndToEndTests {
    typealias Wallet = PresentationRequirementEndToEndTests.Wallet
    static let docType = "org.iso.18013.5.1.mDL"
    static let space = "org.iso.18013.5.1"
    static let roeClaims = #"{"org.iso.18013.5.1":{"family_name":"Roe","given_name":"Richard","birth_date":{"$type":"full-date","value":"2001-07-04"},"age_over_18":true}}"#

    /// One credential query for mDLs, `multiple: true`, each presentation showing both names or `age_over_18`.
    static let multiple = #"{"credentials":[{"id":"mdl","format":"mso_mdoc","multiple":true,"meta":{"doctype_value":"org.iso.18013.5.1.mDL"},"claims":["#
        + #"{"id":"n","path":["org.iso.18013.5.1","family_name"]},{"id":"g","path":["org.iso.18013.5.1","given_name"]},"#
        + #"{"id":"a","path":["org.iso.18013.5.1","age_over_18"]}],"claim_sets":[["n","g"],["a"]]}]}"#

    /// A registered holder with Jane Doe's mDL and Richard Roe's, claimed from the tenant; the SDK and each
    /// credential's parts.
    static func wallets(_ tenant: EndToEndTenant) async throws -> (holder: MobileCredentialHolder, doe: Wallet, roe: Wallet, doeId: String) {
        try await CredentialsEndToEndTests.configure(tenant)
        let iacas = try await tenant.admin.iacas()
        let application = try await tenant.createIOSApplication()
        let storage = FileSecureStorage(directory: tenant.scratch.appendingPathComponent("two-people"), applicationId: "holdfast-sdk")
        let secureArea = SoftwareSecureArea(storage: storage)
        let holder = MobileCredentialHolder(seams: PlatformSeams(secureStorage: storage, secureArea: secureArea, transport: URLSessionTransport(timeout: 15),
                                                                 tetheringScheduler: ManualTetheringScheduler()))
        try await holder.initialize(platformConfiguration: PlatformConfiguration(
            tenantHost: tenant.baseURL.replacingOccurrences(of: "127.0.0.1", with: "localhost"), applicationId: try #require(application.id)))
        _ = try await holder.registerDevice()
        _ = try await holder.addTrustedIssuerCertificates(iacas.data.map(\.certificatePem))
        var wallets: [(Wallet, String)] = []
        for claims in [CredentialsEndToEndTests.claims, Self.roeClaims] {
            let offer = try await tenant.admin.createCredentialOffer(try HoldfastJSON.decode(
                CredentialOfferRequest.self, from: Data(#"{"configurationId":"mdl","claims":\#(claims)}"#.utf8)))
            let claimed = try #require(try await holder.claimCredentials(offer: try await holder.retrieveCredentialOffer(uri: offer.offerUri)).first)
            let (stored, issuerSigned) = try await holder.credentials.presentable(claimed.id)
            wallets.append((Wallet(stored: stored, issuerSigned: issuerSigned, secureArea: secureArea), claimed.id))
        }
        return (holder, wallets[0].0, wallets[1].0, wallets[0].1)
    }

    /// Doe's names and Roe's `age_over_18`, two presentations of the credential query `mdl`.
    static func twoPeople(_ doe: Wallet, _ roe: Wallet) -> (SessionTranscript) async throws -> JSONValue {
        { transcript in
            .object(["mdl": .array([Wallet.response([try await doe.document(["family_name", "given_name"], transcript)]),
                                    Wallet.response([try await roe.document(["age_over_18"], transcript)])])])
        }
    }

    /// The two entries of a two-people result, each with only its own document's claims.
    static func expectTwoPeople(_ result: PresentationResult, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(result.status == "verified", "\(result)", sourceLocation: sourceLocation)
        #expect(result.claims == nil, "claims by docType would merge the two: \(result)", sourceLocation: sourceLocation)
        let credentials = result.credentials ?? []
        #expect(credentials.count == 2, "\(result)", sourceLocation: sourceLocation)
        #expect(credentials.map(\.credentialQueryId) == ["mdl", "mdl"] && credentials.allSatisfy { $0.docType == docType }, sourceLocation: sourceLocation)
        #expect(credentials.first?.claims == [space: ["family_name": .string("Doe"), "given_name": .string("Jane")]], sourceLocation: sourceLocation)
        #expect(credentials.last?.claims == [space: ["age_over_18": .bool(true)]], sourceLocation: sourceLocation)
        // Both issued by this tenant, with a status list that says valid.
        #expect(credentials.allSatisfy { $0.status == .valid && !$0.issuer.subject.isEmpty && !$0.issuer.iaca.isEmpty }, "\(credentials)",
                sourceLocation: sourceLocation)
        #expect(Set(credentials.map(\.issuer)).count == 1, sourceLocation: sourceLocation)
    }

    @Test(arguments: EndToEndBackend.available)
    func twoMDocsOfOneDocTypeAreTwoCredentials(_ backend: EndToEndBackend) async throws {
        try await PresentationEndToEndTests.withLocalhostTenant(backend) { tenant in
            let (holder, doe, roe, doeId) = try await Self.wallets(tenant)
            let multipleSession = #"{"protocol":"openid4vp-1.0","mode":"cross-device","query":{"dcql":\#(Self.multiple)}}"#
            let created = try await PresentationEndToEndTests.session(tenant, multipleSession)
            let posted = try await PresentationRequirementEndToEndTests.respond(created, Self.twoPeople(doe, roe))
            #expect(posted.status == 200, "\(String(decoding: posted.body, as: UTF8.self))")
            let result = try await PresentationEndToEndTests.result(tenant, created.sessionId)
            Self.expectTwoPeople(result)
            // The IACA named is the tenant's, the document signer one it issued.
            let iaca = try #require(try await tenant.admin.iacas().data.first { $0.active })
            let iacaSubject = try #require(result.credentials?.first?.issuer.iaca)
            #expect(iacaSubject.contains("CN="), "\(iacaSubject)")
            #expect(try Certificate(pemEncoded: iaca.certificatePem).subject.description == iacaSubject)

            // Two credential queries for one docType: two entries, named by their queries, and no claims by docType.
            let two = #"{"protocol":"openid4vp-1.0","mode":"cross-device","query":{"dcql":{"credentials":["#
                + #"{"id":"holder","format":"mso_mdoc","meta":{"doctype_value":"org.iso.18013.5.1.mDL"},"claims":[{"path":["org.iso.18013.5.1","family_name"]}]},"#
                + #"{"id":"guardian","format":"mso_mdoc","meta":{"doctype_value":"org.iso.18013.5.1.mDL"},"claims":[{"path":["org.iso.18013.5.1","age_over_18"]}]}]}}}"#
            let byQuery = try await PresentationRequirementEndToEndTests.answer(tenant, session: two) { transcript in
                .object(["holder": .array([Wallet.response([try await doe.document(["family_name"], transcript)])]),
                         "guardian": .array([Wallet.response([try await roe.document(["age_over_18"], transcript)])])])
            }
            #expect(byQuery.status == "verified" && byQuery.claims == nil, "\(byQuery)")
            #expect(Dictionary(uniqueKeysWithValues: (byQuery.credentials ?? []).map { ($0.credentialQueryId ?? "", $0.claims) })
                    == ["holder": [Self.space: ["family_name": .string("Doe")]], "guardian": [Self.space: ["age_over_18": .bool(true)]]])

            // One document, sent by the SDK: `claims` by docType as before, beside its one entry.
            let single = try await PresentationEndToEndTests.session(
                tenant, #"{"protocol":"openid4vp-1.0","mode":"cross-device","query":\#(PresentationEndToEndTests.query)}"#)
            try await holder.createOnlinePresentationSession(authorisationRequestUri: single.authorizationRequestUri)
                .sendResponse(credentialIds: [doeId], autoRedirect: false)
            let one = try await PresentationEndToEndTests.result(tenant, single.sessionId)
            let expected: [String: [String: JSONValue]] = [Self.space: ["family_name": .string("Doe"), "age_over_18": .bool(true)]]
            #expect(one.status == "verified" && one.claims == [Self.docType: expected], "\(one)")
            #expect(one.credentials?.count == 1 && one.credentials?.first?.claims == expected && one.credentials?.first?.credentialQueryId == "credential")

            // The command line prints the result as the API gives it (docs/command-line.md "The `holdfast` command").
            guard backend == .sqlite else { return }
            let data = tenant.scratch.deletingLastPathComponent().path
            for (id, check) in [(created.sessionId, { (printed: PresentationResult) in Self.expectTwoPeople(printed) }),
                                (single.sessionId, { (printed: PresentationResult) in #expect(printed == one) })] {
                let run = try await ServeProcessTests.run(["admin", "presentations", "result", id, "--data", data])
                #expect(run.status == 0, "\(run.error)")
                check(try HoldfastJSON.decode(PresentationResult.self, from: Data(run.output.utf8)))
                #expect(run.output.contains(#""credentials" : ["#), "\(run.output)")
            }
        }
    }
}
