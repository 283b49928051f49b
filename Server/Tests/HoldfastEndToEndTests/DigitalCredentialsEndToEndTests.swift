import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import HoldfastAdmin
import HoldfastProtocol
import HoldfastSDK
import JOSE
import Testing
import TestSupport

/// docs/server-api.md and docs/sdk.md "Digital Credentials API", end to end: the tenant's verifier makes a `dc-api`
/// session, the SDK answers each of its requests as a wallet the platform asked (for the page's origin), the answer is
/// posted to the tenant's answer route as a page would post the browser's `DigitalCredential`, and the tenant verifies
/// it — the SDK's answers cross-checked by the tenant's verifier, for each protocol, on SQLite and PostgreSQL.
@Suite struct DigitalCredentialsEndToEndTests {
    static let origin = "https://shop.example"

    /// A `dc-api` session for `protocols` and the page at `origin`.
    static func session(_ tenant: EndToEndTenant, protocols: [String]) async throws -> DigitalCredentialsSessionCreated {
        let protocolList = protocols.map { "\"\($0)\"" }.joined(separator: ",")
        let body = #"{"protocol":"dc-api","dcApi":{"protocols":[\#(protocolList)],"origins":["\#(origin)"]},"query":\#(PresentationEndToEndTests.query)}"#
        return try await tenant.admin.createDigitalCredentialsSession(try HoldfastJSON.decode(PresentationSessionRequest.self, from: Data(body.utf8)))
    }

    /// Posts the wallet's `{protocol, data}` to the session's answer route, as the page does; the response code.
    static func answer(_ tenant: EndToEndTenant, sessionId: String, _ answer: Data) async throws -> (status: Int, body: String) {
        var request = URLRequest(url: try #require(URL(string: tenant.baseURL + PresentationRoutes.dcAPIResponse(sessionId: sessionId))))
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.httpBody = answer
        let (data, response) = try await URLSession.shared.data(for: request)
        return ((response as? HTTPURLResponse)?.statusCode ?? -1, String(decoding: data, as: UTF8.self))
    }

    /// The one request of `created` as the page hands it to the platform (`{protocol, data}`).
    static func request(_ created: DigitalCredentialsSessionCreated) throws -> Data {
        try JSONEncoder().encode(try #require(created.digital.requests.first))
    }

    @Test(arguments: EndToEndBackend.available)
    func theSDKsAnswersAreVerifiedByTheTenantForEachProtocol(_ backend: EndToEndBackend) async throws {
        try await PresentationEndToEndTests.withLocalhostTenant(backend) { tenant in
            let (holder, _, credentialId) = try await PresentationEndToEndTests.wallet(tenant)
            for protocolName in ["openid4vp-v1-signed", "openid4vp-v1-unsigned", "org-iso-mdoc"] {
                let created = try await Self.session(tenant, protocols: [protocolName])
                let session = try await holder.createDigitalCredentialsPresentationSession(request: try Self.request(created), origin: Self.origin)
                #expect(session.request.origin == Self.origin)
                #expect(session.matchedCredentials.flatMap { $0.matchedMobileCredentials.map(\.id) } == [credentialId], "\(protocolName)")
                // The tenant's request signer chains to the verifier CA the wallet trusts; an unsigned request is anonymous.
                #expect(session.request.verifiedBy == (protocolName == "openid4vp-v1-unsigned" ? .none : .certificate), "\(protocolName)")
                let answered = try await Self.answer(tenant, sessionId: created.sessionId, try await session.sendResponse(credentialIds: [credentialId]))
                #expect(answered.status == 200 && answered.body.contains("responseCode"), "\(protocolName): \(answered.body)")
                let result = try await PresentationEndToEndTests.result(tenant, created.sessionId)
                #expect(result.status == .verified, "\(protocolName): \(result)")
                #expect(result.credentials?.first?.claims["org.iso.18013.5.1"]?["family_name"] != nil, "\(protocolName): \(result)")
            }
        }
    }

    @Test(arguments: EndToEndBackend.available)
    func aDeclineFromTheSDKEndsTheSessionDeclined(_ backend: EndToEndBackend) async throws {
        try await PresentationEndToEndTests.withLocalhostTenant(backend) { tenant in
            let (holder, _, _) = try await PresentationEndToEndTests.wallet(tenant)
            for protocolName in ["openid4vp-v1-signed", "org-iso-mdoc"] {
                let created = try await Self.session(tenant, protocols: [protocolName])
                let session = try await holder.createDigitalCredentialsPresentationSession(request: try Self.request(created), origin: Self.origin)
                let answered = try await Self.answer(tenant, sessionId: created.sessionId, try await session.declineRequest())
                #expect(answered.status == 200, "\(protocolName): \(answered.body)")
                #expect(try await PresentationEndToEndTests.result(tenant, created.sessionId).status == .declined, "\(protocolName)")
            }
        }
    }

    /// The origin the wallet was told by the platform is another page's: a signed request refuses it in the SDK
    /// (`ORIGIN_NOT_EXPECTED`); an unsigned or Annex C answer made for it does not verify at the tenant.
    @Test func anAnswerForAnotherPageIsRefusedOnBothSides() async throws {
        try await PresentationEndToEndTests.withLocalhostTenant(.sqlite) { tenant in
            let (holder, _, credentialId) = try await PresentationEndToEndTests.wallet(tenant)
            let signed = try await Self.session(tenant, protocols: ["openid4vp-v1-signed"])
            await #expect(throws: HoldfastError.self) {
                do {
                    _ = try await holder.createDigitalCredentialsPresentationSession(request: try Self.request(signed), origin: "https://evil.example")
                } catch let error as HoldfastError {
                    #expect(error.code == .originNotExpected, "\(error)")
                    throw error
                }
            }
            for (protocolName, code) in [("openid4vp-v1-unsigned", PresentationFailureCode.originMismatch), ("org-iso-mdoc", .decryptionFailed)] {
                let created = try await Self.session(tenant, protocols: [protocolName])
                let session = try await holder.createDigitalCredentialsPresentationSession(request: try Self.request(created), origin: "https://evil.example")
                let answered = try await Self.answer(tenant, sessionId: created.sessionId, try await session.sendResponse(credentialIds: [credentialId]))
                #expect(answered.status == 200, "\(protocolName): \(answered.body)")
                let result = try await PresentationEndToEndTests.result(tenant, created.sessionId)
                #expect(result.status == .failed && result.failures?.map(\.code) == [code], "\(protocolName): \(result)")
            }
        }
    }
}
