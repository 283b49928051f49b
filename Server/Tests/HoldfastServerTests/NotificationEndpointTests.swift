import Crypto
import Foundation
import HoldfastAdmin
import HoldfastProtocol
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import JOSE
import OpenID4VCI
import StatusList
import Testing
import TestSupport

/// The notification endpoint (OpenID4VCI 1.0 §11; docs/server-api.md "Credentials"): the wallet says what became of a credential
/// it was issued; one it refused or deleted is revoked, record and status list entry, and every event is recorded.
@Suite struct NotificationEndpointTests {
    /// A wallet holding an access token (and its DPoP key) and the credential response it was issued.
    struct Issued {
        let wallet: IssuanceTestWallet
        let endpoints: (token: String, nonce: String, credential: String)
        let notificationEndpoint: String
        let accessToken: String
        let dpopKey: P256.Signing.PrivateKey
        let notificationId: String
        /// The credential response as sent.
        let responseBody: String
    }

    static func issue(_ kit: ServerTestKit, wallet given: IssuanceTestWallet? = nil) async throws -> Issued {
        let wallet: IssuanceTestWallet
        if let given { wallet = given } else {
            wallet = try await IssuanceTestWallet.make(kit)
            try await wallet.createConfiguration()
        }
        let (_, code) = try await wallet.offer()
        let endpoints = try await wallet.endpoints()
        let dpopKey = P256.Signing.PrivateKey()
        let token = try wallet.accessToken(try await wallet.tokenRequest(endpoint: endpoints.token, code: code, dpopKey: dpopKey))
        let proof = try IssuanceTestWallet.keyProof(key: P256.Signing.PrivateKey(), nonce: try await wallet.nonce(endpoint: endpoints.nonce))
        let response = try await wallet.credentialRequest(endpoint: endpoints.credential, accessToken: token, dpopKey: dpopKey, proof: proof)
        try #require(response.status == .ok, "credential: \(response.status) \(response.text)")
        let body = try JSONDecoder().decode(CredentialResponse.self, from: Data(response.body.readableBytesView))
        let metadata = try await kit.client.execute(uri: IssuanceRoutes.Template.issuerMetadata.template, method: .get)
        let document = try JSONDecoder().decode(CredentialIssuerMetadata.self, from: Data(metadata.body.readableBytesView))
        return Issued(wallet: wallet, endpoints: endpoints, notificationEndpoint: try #require(document.notificationEndpoint),
                      accessToken: token, dpopKey: dpopKey, notificationId: try #require(body.notificationId),
                      responseBody: response.text)
    }

    /// A notification request: `body` as given, authenticated by `issued`'s token and a fresh DPoP proof for the
    /// notification endpoint, unless a part is replaced.
    static func notify(_ kit: ServerTestKit, _ issued: Issued, body: String, authorization: String?? = nil,
                       dpop: String? = nil, dpopKey: P256.Signing.PrivateKey? = nil, dpopURI: String? = nil) async throws -> TestResponse {
        var headers = HTTPFields()
        headers[.contentType] = "application/json"
        if let value = authorization ?? "DPoP \(issued.accessToken)" { headers[.authorization] = value }
        headers[HTTPField.Name("DPoP")!] = try dpop ?? DPoPProof.create(
            method: "POST", uri: dpopURI ?? issued.notificationEndpoint, key: JWSSigningKey(dpopKey ?? issued.dpopKey),
            issuedAt: Date(), accessToken: issued.accessToken)
        return try await kit.client.execute(uri: IssuanceTestWallet.path(issued.notificationEndpoint), method: .post,
                                            headers: headers, body: ByteBuffer(string: body))
    }

    static func body(_ id: String, _ event: String, description: String? = nil) -> String {
        let described = description.map { #","event_description":"\#($0)""# } ?? ""
        return #"{"notification_id":"\#(id)","event":"\#(event)"\#(described)}"#
    }

    static func credential(_ kit: ServerTestKit, _ id: String) async throws -> IssuedCredential {
        let page = try await kit.admin(CredentialAdminRoutes.Template.credentials, .get).wire(IssuedCredentialPage.self)
        return try #require(page.data.first { $0.id == id })
    }

    static func listedStatus(_ kit: ServerTestKit, _ credential: IssuedCredential) async throws -> UInt8 {
        let reference = try #require(credential.statusList)
        let response = try await kit.client.execute(uri: IssuanceTestWallet.path(reference.uri), method: .get)
        return try SignedStatusListToken(decoding: Array(response.body.readableBytesView)).token.list.status(at: reference.idx)
    }

    @Test(arguments: StorageBackend.available)
    func aRefusedCredentialIsRevokedAndEveryEventRecorded(_ backend: StorageBackend) async throws {
        try await ServerTestKit.run(backend, testing: .live) { kit in
            let issued = try await Self.issue(kit)
            #expect(try await Self.credential(kit, issued.notificationId).walletNotification == nil)

            let accepted = try await Self.notify(kit, issued, body: Self.body(issued.notificationId, "credential_accepted"))
            #expect(accepted.status == .noContent, "\(accepted.text)")
            #expect(accepted.headers[.cacheControl] == "no-store")
            let held = try await Self.credential(kit, issued.notificationId)
            #expect(held.status == .valid && held.walletNotification?.event == .credentialAccepted)
            #expect(try await Self.listedStatus(kit, held) == 0)

            let failed = try await Self.notify(kit, issued, body: Self.body(issued.notificationId, "credential_failure",
                                                                            description: "UNTRUSTED_ISSUER: not trusted"))
            #expect(failed.status == .noContent, "\(failed.text)")
            let refused = try await Self.credential(kit, issued.notificationId)
            #expect(refused.status == .revoked)
            #expect(refused.walletNotification?.event == .credentialFailure)
            #expect(refused.walletNotification?.description == "UNTRUSTED_ISSUER: not trusted")
            #expect(try await Self.listedStatus(kit, refused) == 1)
            // Harmless to repeat; an acceptance after the refusal does not bring the credential back.
            #expect(try await Self.notify(kit, issued, body: Self.body(issued.notificationId, "credential_failure")).status == .noContent)
            #expect(try await Self.notify(kit, issued, body: Self.body(issued.notificationId, "credential_accepted")).status == .noContent)
            let after = try await Self.credential(kit, issued.notificationId)
            #expect(after.status == .revoked && after.walletNotification?.event == .credentialAccepted)
            #expect(try await Self.listedStatus(kit, after) == 1)

            // credential_deleted revokes as well.
            let other = try await Self.issue(kit, wallet: issued.wallet)
            #expect(try await Self.notify(kit, other, body: Self.body(other.notificationId, "credential_deleted")).status == .noContent)
            let deleted = try await Self.credential(kit, other.notificationId)
            #expect(deleted.status == .revoked && deleted.walletNotification?.event == .credentialDeleted)
        }
    }

    /// The `openid4vci` package (shared/peers) reads the credential response's `notification_id` and writes
    /// notification requests the tenant takes.
    @Test(.enabled(if: Peer.isAvailable, Peer.unavailableReason))
    func theOpenID4VCILibrarysNotificationsAreTaken() async throws {
        try await ServerTestKit.run(.sqlite) { kit in
            let issued = try await Self.issue(kit)
            let script = Peer.projectScriptsDirectory.appendingPathComponent("oid4vci_notification.py")
            // The credential response, notification_id included, as the package reads it (§8.3).
            let read = try await Peer.run(script: script, ["credential-response", issued.responseBody])
            #expect(read.accepted, "\(read.stdout) \(read.stderr)")
            #expect(try read.object()["notification_id"] as? String == issued.notificationId)
            #expect(try read.object()["credentials"] as? Int == 1)
            for (event, description, status) in [("credential_accepted", nil, IssuedCredentialStatus.valid),
                                                 ("credential_failure", "the credential did not verify", .revoked)] {
                let made = try await Peer.run(script: script, ["make", issued.notificationId, event] + (description.map { [$0] } ?? []))
                #expect(made.accepted, "\(made.stdout) \(made.stderr)")
                let body = try #require(try made.object()["body"] as? String)
                let response = try await Self.notify(kit, issued, body: body)
                #expect(response.status == .noContent, "\(body): \(response.text)")
                let credential = try await Self.credential(kit, issued.notificationId)
                #expect(credential.status == status && credential.walletNotification?.event.rawValue == event)
                #expect(credential.walletNotification?.description == description)
            }
        }
    }

    /// Each request honest but for one thing, refused with its code; none of them records or revokes anything.
    @Test func theNotificationEndpointRefusesEachBadRequestWithItsCode() async throws {
        try await ServerTestKit.run(.sqlite) { kit in
            let issued = try await Self.issue(kit)
            let another = try await Self.issue(kit, wallet: issued.wallet)
            let honest = Self.body(issued.notificationId, "credential_failure")

            func expectRefusal(_ response: TestResponse, _ status: HTTPResponse.Status, _ code: String,
                               sourceLocation: SourceLocation = #_sourceLocation) {
                #expect(response.status == status, "\(response.text)", sourceLocation: sourceLocation)
                #expect(IssuanceTestWallet.oauthError(response) == code, "\(response.text)", sourceLocation: sourceLocation)
            }
            // RFC 6750 §3.1 / RFC 9449 §7.1: the access token and its DPoP proof, as at the credential endpoint.
            let noToken = try await Self.notify(kit, issued, body: honest, authorization: .some(nil))
            expectRefusal(noToken, .unauthorized, "invalid_token")
            #expect(noToken.headers[.wwwAuthenticate]?.hasPrefix("DPoP") == true)
            expectRefusal(try await Self.notify(kit, issued, body: honest, authorization: "DPoP " + String(repeating: "A", count: 43)),
                          .unauthorized, "invalid_token")
            expectRefusal(try await Self.notify(kit, issued, body: honest, authorization: "Bearer \(issued.accessToken)"),
                          .unauthorized, "invalid_token")
            expectRefusal(try await Self.notify(kit, issued, body: honest, dpopKey: P256.Signing.PrivateKey()),
                          .unauthorized, "invalid_dpop_proof")
            expectRefusal(try await Self.notify(kit, issued, body: honest, dpopURI: issued.endpoints.credential),
                          .unauthorized, "invalid_dpop_proof")
            let proof = try DPoPProof.create(method: "POST", uri: issued.notificationEndpoint, key: JWSSigningKey(issued.dpopKey),
                                             issuedAt: Date(), accessToken: issued.accessToken)
            #expect(try await Self.notify(kit, issued, body: Self.body(issued.notificationId, "credential_accepted"), dpop: proof).status
                == .noContent)
            expectRefusal(try await Self.notify(kit, issued, body: honest, dpop: proof), .unauthorized, "invalid_dpop_proof")

            // §11.3: a notification_id that names no credential of this access token — unknown, or another offer's.
            expectRefusal(try await Self.notify(kit, issued, body: Self.body(UUID().uuidString.lowercased(), "credential_failure")),
                          .badRequest, "invalid_notification_id")
            expectRefusal(try await Self.notify(kit, issued, body: Self.body(another.notificationId, "credential_failure")),
                          .badRequest, "invalid_notification_id")
            expectRefusal(try await Self.notify(kit, issued, body: Self.body("not-an-id", "credential_failure")),
                          .badRequest, "invalid_notification_id")
            // §11.1: the request itself.
            for body in [Self.body(issued.notificationId, "credential_lost"), #"{"event":"credential_failure"}"#,
                         #"{"notification_id":"\#(issued.notificationId)"}"#, #"{"notification_id":7,"event":"credential_failure"}"#,
                         Self.body(issued.notificationId, "credential_failure", description: #"a \"quoted\" reason"#),
                         Self.body(issued.notificationId, "credential_failure", description: "caf\u{e9}"),
                         "notification_id=x", ""] {
                expectRefusal(try await Self.notify(kit, issued, body: body), .badRequest, "invalid_notification_request")
            }

            // Nothing refused changed either credential.
            let first = try await Self.credential(kit, issued.notificationId)
            #expect(first.status == .valid && first.walletNotification?.event == .credentialAccepted)
            let second = try await Self.credential(kit, another.notificationId)
            #expect(second.status == .valid && second.walletNotification == nil)
            // Honest, it is taken.
            #expect(try await Self.notify(kit, issued, body: honest).status == .noContent)
            #expect(try await Self.credential(kit, issued.notificationId).status == .revoked)
        }
    }
}
