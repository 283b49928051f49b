import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import HoldfastAdmin
import HoldfastProtocol
import Synchronization
import Testing

/// `AdminClient`'s typed methods call the admin routes of the contract (`AdminRoutes`, `HoldfastRoutes`), each id one
/// percent-encoded path segment (RFC 3986 §2.1), with the admin key as a bearer token.
struct AdminClientRouteTests {
    /// The requests a client sent.
    final class Sent: Sendable {
        let requests = Mutex<[URLRequest]>([])
        func withLock<T>(_ body: (inout [URLRequest]) -> T) -> T { requests.withLock { body(&$0) } }
    }

    /// A client whose requests are recorded and answered with `status` and `body`.
    static func client(status: Int, body: String) -> (AdminClient, Sent) {
        let sent = Sent()
        let client = AdminClient(baseURL: "https://tenant.test", adminKey: "hfk_k_s") { request in
            sent.withLock { $0.append(request) }
            return AdminClient.Answer(status: status, headers: [:], body: Data(body.utf8))
        }
        return (client, sent)
    }

    static let wallet = #"{"id":"w","applicationId":"a","userId":"u","state":"active","accessProtection":"pin","maxPinAttempts":3,"pinAttemptsLeft":3,"createdAt":"2026-11-23T09:05:33Z","updatedAt":"2026-11-23T09:05:33Z"}"#

    @Test func anIdWithReservedCharactersIsOneSegment() async throws {
        let (client, sent) = Self.client(status: 200, body: Self.wallet)
        _ = try? await client.lockSCAWallet(id: "w/1 ?#", reason: "LOST_DEVICE")
        let request = try #require(sent.withLock { $0.first })
        #expect(request.url?.absoluteString == "https://tenant.test/v1/sca/wallets/w%2F1%20%3F%23/lock")
        #expect(request.httpMethod == "PUT")
        #expect(request.value(forHTTPHeaderField: "Authorization") == "Bearer hfk_k_s")
    }

    @Test func queriesAreEncoded() async throws {
        let (client, sent) = Self.client(status: 200, body: #"{"data":[]}"#)
        _ = try await client.scaWallets(userId: "a&b=c")
        _ = try await client.issuedCredentials(limit: 5, cursor: "x/y")
        let urls = sent.withLock { $0.map { $0.url?.absoluteString } }
        #expect(urls == ["https://tenant.test/v1/sca/wallets?userId=a%26b%3Dc",
                         "https://tenant.test/v1/credentials/mobile?limit=5&cursor=x%2Fy"])
    }

    @Test func anUnexpectedStatusIsAFailureWithTheProblem() async throws {
        let (client, _) = Self.client(status: 404, body: #"{"type":"about:blank","title":"Not Found","status":404,"code":"NOT_FOUND"}"#)
        await #expect(throws: AdminClient.Failure.self) { try await client.deleteSCAWallet(id: "w") }
        do {
            _ = try await client.presentationResult(sessionId: "s")
            Issue.record("a 404 decoded as a result")
        } catch let failure as AdminClient.Failure {
            #expect(failure.status == 404 && failure.problem?.code == .notFound)
        }
    }

    /// The holder applications' and instances' admin paths, each id one percent-encoded segment, below the prefixes
    /// `TetheringRoutes` declares.
    @Test func tetheringAdminPaths() {
        #expect(TetheringAdminRoutes.instance(applicationId: "a", instanceId: "i") == "/v1/holder/applications/a/instances/i")
        #expect(TetheringAdminRoutes.application("a b") == "/v1/holder/applications/a%20b")
        #expect(TetheringAdminRoutes.Template.instance.parameters == ["applicationId", "instanceId"])
        #expect(TetheringAdminRoutes.Template.reject.template == "/v1/holder/applications/{applicationId}/instances/{instanceId}/reject")
        #expect(TetheringAdminRoutes.Template.applications == TetheringRoutes.Template.applications)
    }

    @Test func everyAdminTemplateIsDeclaredOnce() {
        #expect(Set(AdminRoutes.everyTemplate).count == AdminRoutes.everyTemplate.count)
        #expect(Set(AdminRoutes.all).isDisjoint(with: Set(HoldfastRoutes.all)))
    }
}
