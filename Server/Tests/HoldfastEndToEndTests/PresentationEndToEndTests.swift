import COSE
import Crypto
import Foundation
import HoldfastAdmin
import HoldfastProtocol
@testable import HoldfastSDK
import JOSE
import MDoc
import OpenID4VP
import ServerTestSupport
import Synchronization
import Testing

/// The wall clock, moved on by `shift(by:)`: the server's time runs as usual until a test jumps it forward.
final class ShiftedClock: HoldfastClock, @unchecked Sendable {
    // @unchecked: `offset` is only read and written under `lock`.
    private let lock = NSLock()
    private var offset: TimeInterval = 0

    func now() -> Date { Date().addingTimeInterval(lock.withLock { offset }) }
    func shift(by interval: TimeInterval) { lock.withLock { offset += interval } }
}

/// Records what a device sends: its posts, so that a test can replay one as an attacker would, and everything as
/// text, so that a test can search it.
final class RecordingTransport: HTTPTransport, @unchecked Sendable {
    // @unchecked: `recorded` is only read and written under `lock`; `inner` is immutable.
    private let inner: any HTTPTransport
    private let lock = NSLock()
    private var recorded: [TransportRequest] = []

    init(_ inner: any HTTPTransport) { self.inner = inner }

    var posts: [TransportRequest] { lock.withLock { recorded.filter { $0.method == "POST" } } }

    /// Every request: method, URL, headers and body.
    var everything: String {
        lock.withLock {
            recorded.map { "\($0.method) \($0.url.absoluteString)\n\($0.headers)\n\(String(decoding: $0.body ?? Data(), as: UTF8.self))" }
                .joined(separator: "\n")
        }
    }

    func send(_ request: TransportRequest) async throws -> TransportResponse {
        lock.withLock { recorded.append(request) }
        return try await inner.send(request)
    }
}

/// Online presentation end to end (docs/server-api.md "Verifier", "Holder: presentation"): the SDK answers sessions of the
/// tenant's verifier over real HTTP, OpenID4VP 1.0 and ISO/IEC TS 18013-7:2024, cross- and same-device.
@Suite struct PresentationEndToEndTests {
    static let query = #"{"docType":"org.iso.18013.5.1.mDL","nameSpaces":{"org.iso.18013.5.1":{"family_name":true,"age_over_18":false}}}"#

    /// A tenant whose public URL is http://localhost:<port> (a DNS host, which x509_san_dns and 2024 need).
    static func withLocalhostTenant(_ backend: EndToEndBackend, clock: any HoldfastClock = SystemClock(),
                                    _ body: @escaping @Sendable (EndToEndTenant) async throws -> Void) async throws {
        // A port found free can be taken by another test before the tenant binds it: then another port, as long as
        // the body has not started.
        for attempt in 1 ... 5 {
            let port = try RawConnection.freePort()
            let started = Started()
            do {
                try await backend.withTenant(clock: clock, configure: { configuration in
                    configuration.port = port
                    configuration.publicURL = "http://localhost:\(port)"
                }, { tenant in
                    started.mark()
                    try await body(tenant)
                })
                return
            } catch where attempt < 5 && !started.value && "\(error)".contains("Address already in use") {
                continue
            }
        }
    }

    private final class Started: Sendable {
        private let flag = Mutex(false)
        func mark() { flag.withLock { $0 = true } }
        var value: Bool { flag.withLock { $0 } }
    }

    static func session(_ tenant: EndToEndTenant, _ body: String) async throws -> PresentationSessionCreated {
        try await tenant.admin.createPresentationSession(try HoldfastJSON.decode(PresentationSessionRequest.self, from: Data(body.utf8)))
    }

    static func result(_ tenant: EndToEndTenant, _ id: String) async throws -> PresentationResult {
        try await tenant.admin.presentationResult(sessionId: id)
    }

    /// A registered wallet that trusts the tenant's IACA and verifier CA and holds one claimed mDL.
    static func wallet(_ tenant: EndToEndTenant) async throws -> (holder: MobileCredentialHolder, network: RecordingTransport, credentialId: String) {
        try await CredentialsEndToEndTests.configure(tenant)
        let iacas = try await tenant.admin.iacas()
        let verifierCAs = try await tenant.admin.verifierCAs()
        let application = try await tenant.createIOSApplication()
        let storage = FileSecureStorage(directory: tenant.scratch.appendingPathComponent("wallet"), applicationId: "holdfast-sdk")
        let network = RecordingTransport(URLSessionTransport(timeout: 15))
        let holder = MobileCredentialHolder(seams: PlatformSeams(secureStorage: storage, secureArea: SoftwareSecureArea(storage: storage),
                                                                 transport: network, tetheringScheduler: ManualTetheringScheduler()))
        // The SDK talks to the tenant by its public URL, which DPoP proofs name.
        try await holder.initialize(platformConfiguration: PlatformConfiguration(tenantHost: tenant.baseURL.replacingOccurrences(of: "127.0.0.1", with: "localhost"),
                                                                               applicationId: try #require(application.id)))
        _ = try await holder.registerDevice()
        _ = try await holder.addTrustedIssuerCertificates(iacas.data.map(\.certificatePem))
        _ = try await holder.addTrustedVerifierCertificates(verifierCAs.data.map(\.certificatePem))
        let claimed = try await holder.claimCredentials(
            offer: try await holder.retrieveCredentialOffer(uri: try await CredentialsEndToEndTests.offer(tenant, txCode: false).offerUri))
        return (holder, network, try #require(claimed.first).id)
    }

    @Test(arguments: EndToEndBackend.available)
    func aWalletPresentsToTheTenantsVerifier(_ backend: EndToEndBackend) async throws {
        try await Self.withLocalhostTenant(backend) { tenant in
            let (holder, network, credentialId) = try await Self.wallet(tenant)

            let cases = [
                (#"{"protocol":"openid4vp-1.0","mode":"cross-device","query":\#(Self.query)}"#, PresentationProtocol.openID4VP, false),
                (#"{"protocol":"openid4vp-1.0","mode":"same-device","clientIdPrefix":"x509_san_dns","redirectUri":"https://shop.example/done","query":\#(Self.query)}"#,
                 .openID4VP, true),
                (#"{"protocol":"18013-7-2024","mode":"cross-device","query":\#(Self.query)}"#, .iso18013_7, false),
                // A wallet's universal link in place of the custom scheme.
                (#"{"protocol":"openid4vp-1.0","mode":"cross-device","authorizationEndpoint":"https://wallet.example/open?from=web","query":\#(Self.query)}"#,
                 .openID4VP, false),
            ]
            for (body, expectedProtocol, sameDevice) in cases {
                let created = try await Self.session(tenant, body)
                #expect(created.authorizationRequestUri.hasPrefix(body.contains("wallet.example") ? "https://wallet.example/open?from=web&client_id="
                                                                  : expectedProtocol == .openID4VP ? "openid4vp://?client_id=" : "mdoc-openid4vp://?client_id="))
                #expect(try await Self.result(tenant, created.sessionId).status == "pending")
                let session = try await holder.createOnlinePresentationSession(authorisationRequestUri: created.authorizationRequestUri,
                                                                               requireTrustedVerifier: true)
                #expect(session.request.verifiedBy == .certificate && session.request.presentationProtocol == expectedProtocol, "\(body)")
                #expect(session.matchedCredentials.first?.matchedMobileCredentials.map(\.id) == [credentialId])
                let redirect = try await session.sendResponse(credentialIds: [credentialId], autoRedirect: false)
                #expect(sameDevice == (redirect?.hasPrefix("https://shop.example/done?response_code=") ?? false), "\(String(describing: redirect))")
                if sameDevice, let redirect, let code = URLComponents(string: redirect)?.queryItems?.first(where: { $0.name == "response_code" })?.value {
                    // The web page the wallet is sent to reads the result with the code alone, once (OpenID4VP 1.0 §8.2).
                    let wrong = URL(string: "\(tenant.baseURL)/v2/presentations/sessions/\(created.sessionId)/result?response_code=x\(code)")!
                    #expect(try await URLSessionTransport().send(TransportRequest(method: "GET", url: wrong)).status == 404)
                    let byCode = URL(string: "\(tenant.baseURL)/v2/presentations/sessions/\(created.sessionId)/result?response_code=\(code)")!
                    let first = try await URLSessionTransport().send(TransportRequest(method: "GET", url: byCode))
                    #expect(first.status == 200 && (try? HoldfastJSON.decode(PresentationResult.self, from: first.body))?.status == "verified")
                    #expect(try await URLSessionTransport().send(TransportRequest(method: "GET", url: byCode)).status == 404)
                }
                let result = try await Self.result(tenant, created.sessionId)
                #expect(result.status == "verified", "\(body): \(result)")
                #expect(result.claims?["org.iso.18013.5.1.mDL"]?["org.iso.18013.5.1"]?["family_name"] == .string("Doe"))
                #expect(result.claims?["org.iso.18013.5.1.mDL"]?["org.iso.18013.5.1"]?["age_over_18"] == .bool(true))
                // The request object is gone once answered, and the same response replayed is refused.
                let fetched = try await network.send(TransportRequest(method: "GET", url: try #require(URL(string: created.requestUri))))
                #expect(fetched.status == 404)
                let replay = try #require(network.posts.last)
                let replayed = try await URLSessionTransport().send(replay)
                #expect(replayed.status == 400)
                #expect(String(decoding: replayed.body, as: UTF8.self).contains("invalid_request"))
                #expect(try await Self.result(tenant, created.sessionId).status == "verified")
            }

            // Another session's response (its own nonce and state) is not taken by this one.
            let first = try await Self.session(tenant, #"{"protocol":"openid4vp-1.0","mode":"cross-device","query":\#(Self.query)}"#)
            let second = try await Self.session(tenant, #"{"protocol":"openid4vp-1.0","mode":"cross-device","query":\#(Self.query)}"#)
            let session = try await holder.createOnlinePresentationSession(authorisationRequestUri: first.authorizationRequestUri)
            try await session.sendResponse(credentialIds: [credentialId], autoRedirect: false)
            var misdirected = try #require(network.posts.last)
            misdirected.url = try #require(URL(string: second.requestUri.replacingOccurrences(of: "/request", with: "/response")))
            #expect(try await URLSessionTransport().send(misdirected).status == 400)
            #expect(try await Self.result(tenant, second.sessionId).status == "pending")

            // Declined.
            let declinedSession = try await Self.session(tenant, #"{"protocol":"openid4vp-1.0","mode":"cross-device","query":\#(Self.query)}"#)
            try await holder.createOnlinePresentationSession(authorisationRequestUri: declinedSession.authorizationRequestUri).declineRequest()
            #expect(try await Self.result(tenant, declinedSession.sessionId).status == "declined")

            // Revoked at the issuer: the wallet's cached status still says valid, the verifier reads its own list.
            let issuedId = try await CredentialsEndToEndTests.firstIssuedId(tenant)
            _ = try await tenant.admin.setCredentialStatus(id: issuedId, CredentialStatusChange(status: "revoked"))
            let revokedSession = try await Self.session(tenant, #"{"protocol":"openid4vp-1.0","mode":"cross-device","query":\#(Self.query)}"#)
            try await holder.createOnlinePresentationSession(authorisationRequestUri: revokedSession.authorizationRequestUri)
                .sendResponse(credentialIds: [credentialId], autoRedirect: false)
            let revoked = try await Self.result(tenant, revokedSession.sessionId)
            #expect(revoked.status == "failed" && revoked.failures?.map(\.code) == [PresentationFailureCode.statusRevoked], "\(revoked)")
        }
    }

    /// A session past its `expiresInSeconds` (the server's clock moved on) serves no request object, takes no response
    /// (`invalid_request`), and its result says `expired`.
    @Test func anExpiredSessionTakesNoResponse() async throws {
        let clock = ShiftedClock()
        try await Self.withLocalhostTenant(.sqlite, clock: clock) { tenant in
            let (holder, network, credentialId) = try await Self.wallet(tenant)
            let created = try await Self.session(tenant, #"{"protocol":"openid4vp-1.0","mode":"cross-device","expiresInSeconds":30,"query":\#(Self.query)}"#)
            let session = try await holder.createOnlinePresentationSession(authorisationRequestUri: created.authorizationRequestUri)
            clock.shift(by: 31)
            #expect(try await Self.result(tenant, created.sessionId).status == "expired")
            #expect(try await network.send(TransportRequest(method: "GET", url: try #require(URL(string: created.requestUri)))).status == 404)
            await #expect(throws: (any Error).self) { try await session.sendResponse(credentialIds: [credentialId], autoRedirect: false) }
            let refused = try #require(network.posts.last)
            let answer = try await URLSessionTransport().send(refused)
            #expect(answer.status == 400 && String(decoding: answer.body, as: UTF8.self).contains("invalid_request"))
            #expect(try await Self.result(tenant, created.sessionId).status == "expired")
        }
    }

    @Test func sessionsAreValidated() async throws {
        try await EndToEndBackend.sqlite.withTenant { tenant in
            for body in [#"{"protocol":"openid4vp-0.9","mode":"cross-device","query":\#(Self.query)}"#,
                         #"{"protocol":"openid4vp-1.0","mode":"same-device","query":\#(Self.query)}"#,
                         #"{"protocol":"openid4vp-1.0","mode":"cross-device","query":{}}"#,
                         #"{"protocol":"18013-7-2024","mode":"cross-device","query":\#(Self.query)}"#,  // an IP host: no x509_san_dns
                         #"{"protocol":"openid4vp-1.0","mode":"cross-device","expiresInSeconds":5,"query":\#(Self.query)}"#,
                         #"{"protocol":"openid4vp-1.0","mode":"cross-device","authorizationEndpoint":"http://wallet.example/open","query":\#(Self.query)}"#] {
                let answer = try await tenant.admin.send("POST", PresentationRoutes.Template.sessions, body: Data(body.utf8))
                #expect(answer.status == 400, "\(body): \(answer.status)")
            }
            let unknown = try await tenant.admin.send("GET", PresentationRoutes.Template.result, ["sessionId": UUID().uuidString.lowercased()])
            #expect(unknown.status == 404)
            let garbage = try await tenant.admin.send("POST", PresentationRoutes.Template.response, ["sessionId": UUID().uuidString.lowercased()],
                                                      headers: ["Content-Type": "application/x-www-form-urlencoded"], body: Data("response=abc".utf8),
                                                      authenticated: false)
            #expect(garbage.status == 400)
        }
    }
}

/// Responses a wallet would never send, made by hand, refused by the tenant's verifier with the failure each earns
/// (docs/server-api.md "Verifier").
@Suite struct PresentationAttackEndToEndTests {
    /// Opens a session asking for family_name and age_over_18, answers it with what `build` makes, returns the result.
    static func answer(_ tenant: EndToEndTenant, _ build: (SessionTranscript) async throws -> Document) async throws -> PresentationResult {
        let created = try await PresentationEndToEndTests.session(tenant, #"{"protocol":"openid4vp-1.0","mode":"cross-device","query":\#(PresentationEndToEndTests.query)}"#)
        let fetched = try await URLSessionTransport().send(TransportRequest(method: "GET", url: try #require(URL(string: created.requestUri))))
        let payload = try #require(try JSONDecoder().decode(JSONValue.self, from: Data(try JWS(compactSerialization: String(decoding: fetched.body, as: UTF8.self)).payload)).objectValue)
        let jwk = try JSONDecoder().decode(JWK.self, from: JSONEncoder().encode(try #require(payload["client_metadata"]?.objectValue?["jwks"]?.objectValue?["keys"]?.arrayValue?.first)))
        let responseUri = try #require(payload["response_uri"]?.stringValue)
        let transcript = SessionTranscript.openID4VP(clientId: try #require(payload["client_id"]?.stringValue), nonce: try #require(payload["nonce"]?.stringValue),
                                                     jwkThumbprint: Base64URL.decode(try jwk.thumbprint()), responseUri: responseUri)
        let document = try await build(transcript)
        let body: JSONValue = .object(["vp_token": .object(["credential": .array([.string(Base64URL.encode(DeviceResponse(documents: [document]).encoded()))])]),
                                       "state": try #require(payload["state"])])
        let jwe = try JWE.encrypt(plaintext: try JSONEncoder().encode(body), to: jwk, encryption: .a128gcm)
        let posted = try await URLSessionTransport().send(TransportRequest(method: "POST", url: try #require(URL(string: responseUri)),
                                                                           headers: ["Content-Type": "application/x-www-form-urlencoded"],
                                                                           body: Data(("response=" + (jwe.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")).utf8)))
        #expect(posted.status == 200)
        return try await PresentationEndToEndTests.result(tenant, created.sessionId)
    }

    @Test func forgedResponsesFailWithTheirCodes() async throws {
        try await PresentationEndToEndTests.withLocalhostTenant(.sqlite) { tenant in
            try await CredentialsEndToEndTests.configure(tenant)
            let iacas = try await tenant.admin.iacas()
            let application = try await tenant.createIOSApplication()
            let storage = FileSecureStorage(directory: tenant.scratch.appendingPathComponent("attacker"), applicationId: "holdfast-sdk")
            let secureArea = SoftwareSecureArea(storage: storage)
            let holder = MobileCredentialHolder(seams: PlatformSeams(secureStorage: storage, secureArea: secureArea,
                                                                     transport: URLSessionTransport(timeout: 15),
                                                                     tetheringScheduler: ManualTetheringScheduler()))
            try await holder.initialize(platformConfiguration: PlatformConfiguration(
                tenantHost: tenant.baseURL.replacingOccurrences(of: "127.0.0.1", with: "localhost"), applicationId: try #require(application.id)))
            _ = try await holder.registerDevice()
            _ = try await holder.addTrustedIssuerCertificates(iacas.data.map(\.certificatePem))
            let claimed = try await holder.claimCredentials(
                offer: try await holder.retrieveCredentialOffer(uri: try await CredentialsEndToEndTests.offer(tenant, txCode: false).offerUri))
            let (stored, issuerSigned) = try await holder.credentials.presentable(try #require(claimed.first).id)

            func attack(_ build: (SessionTranscript) async throws -> Document) async throws -> PresentationResult {
                try await Self.answer(tenant, build)
            }
            func signed(_ disclosed: IssuerSigned, _ transcript: SessionTranscript) async throws -> Document {
                Document(docType: stored.docType, issuerSigned: disclosed,
                         deviceSigned: try await OnlinePresentationSession.deviceSigned(docType: stored.docType, transcript: transcript,
                                                                                        alias: stored.keyAlias, secureArea: secureArea))
            }
            let asked = issuerSigned.disclosing(["org.iso.18013.5.1": ["family_name", "age_over_18"]])

            // The honest answer, made by hand the same way, is verified: the attacks below differ in one thing each.
            #expect(try await attack { try await signed(asked, $0) }.status == "verified")
            // An element that was not asked for.
            let extra = try await attack { try await signed(issuerSigned.disclosing(["org.iso.18013.5.1": ["family_name", "age_over_18", "birth_date"]]), $0) }
            #expect(extra.status == "failed" && extra.failures?.map(\.code) == [PresentationFailureCode.elementNotRequested], "\(extra)")
            // Signed by another key than the MSO's device key.
            let otherKey = try await attack { transcript in
                Document(docType: stored.docType, issuerSigned: asked,
                         deviceSigned: try DeviceSigned.sign(docType: stored.docType, sessionTranscript: transcript, signer: COSESigningKey.p256(.init())))
            }
            #expect(otherKey.failures?.map(\.code) == [PresentationFailureCode.deviceSignatureInvalid], "\(otherKey)")
            // Signed over another session's transcript.
            let replayed = try await attack { _ in
                try await signed(asked, SessionTranscript.openID4VP(clientId: "x509_hash:other", nonce: "other", jwkThumbprint: nil, responseUri: "https://other.example"))
            }
            #expect(replayed.failures?.map(\.code) == [PresentationFailureCode.deviceSignatureInvalid], "\(replayed)")
            // A disclosed value changed after issuance.
            let tampered = try await attack { transcript in
                var bytes = asked.encoded()
                let doe = Array("Doe".utf8)
                let at = try #require((0...(bytes.count - 3)).first { Array(bytes[$0..<$0 + 3]) == doe })
                bytes.replaceSubrange(at..<at + 3, with: Array("Dow".utf8))
                return try await signed(try IssuerSigned(decoding: bytes), transcript)
            }
            #expect(tampered.failures?.map(\.code) == [PresentationFailureCode.digestMismatch], "\(tampered)")
        }
    }
}
