import Foundation
import HoldfastProtocol
@testable import HoldfastSDK
import Testing

/// The SCA wallet's calls fill in the contract's route templates (`SCARoutes`): a wallet id is one percent-encoded
/// path segment (RFC 3986 §2.1), so an id with reserved characters cannot reach another route.
struct WalletRoutePathTests {
    /// Records every request; answers the PIN attempt and an empty event feed.
    actor RecordingTenant: HTTPTransport {
        private(set) var urls: [String] = []

        func send(_ request: TransportRequest) async throws -> TransportResponse {
            urls.append(request.url.absoluteString)
            if request.url.path.hasSuffix("/pin-attempts") {
                return TransportResponse(status: 200, headers: ["Content-Type": "application/json"],
                                         body: Data(#"{"outcome":"failure","pinAttemptsLeft":2,"state":"active"}"#.utf8))
            }
            return TransportResponse(status: 200, headers: ["Content-Type": "text/event-stream"], body: Data())
        }
    }

    @Test func walletIdIsOneEncodedSegment() async throws {
        let tenant = RecordingTenant()
        let secureArea = SoftwareSecureArea(storage: MemorySecureStorage())
        let seams = PlatformSeams(secureStorage: MemorySecureStorage(), secureArea: secureArea, transport: tenant)
        let manager = try WalletManager(seams: seams, configuration: WalletConfiguration(
            platform: PlatformConfiguration(tenantHost: "tenant.test", applicationId: "app-1"), appVersion: "1.0"))
        let alias = "holdfast.sca-wallet.app-1"
        _ = try await secureArea.createKey(alias: alias)
        try await manager.save(StoredWallet(
            walletId: "w/1 ?#", userId: "u", applicationId: "app-1", accessProtection: "pin", maxPinAttempts: 3,
            pinAttemptsLeft: 3, keyAlias: alias, state: .ready, lockReason: nil,
            pin: StoredPIN(derivation: WalletPINSecret(salt: Array(repeating: 1, count: 16), rounds: 2, blockSize: 1, parallelism: 1),
                           key: UserVerifiedKey(factor: .pin, publicKey: "", blob: [])),
            biometryKey: nil, credentialsSet: true, lastEventId: 0, clockOffsetMs: 0, proofCounter: nil, ineligibility: nil, sunset: nil))

        // A wrong PIN (as the tenant answers) throws; only the paths matter here.
        _ = try? await manager.checkCredentials(.pin("123456"))
        _ = try await manager.synchronize()

        #expect(await tenant.urls == [
            "https://tenant.test/v1/sca/wallets/w%2F1%20%3F%23/pin-attempts",
            "https://tenant.test/v1/sca/wallets/w%2F1%20%3F%23/events?wait=0",
        ])
    }

    @Test func routeTemplatesEncodeTheirParameters() {
        #expect(SCARoutes.pinAttempts(walletId: "../x") == "/v1/sca/wallets/..%2Fx/pin-attempts")
        #expect(SCARoutes.Template.events.path(["walletId": "a b"], query: [(SCARoutes.Query.wait, "0")])
            == "/v1/sca/wallets/a%20b/events?wait=0")
        #expect(PresentationRoutes.result(sessionId: "s/1") == "/v2/presentations/sessions/s%2F1/result")
        #expect(StatusListRoutes.token(listID: "l 1") == "/v2/credentials/mobile/status-lists/l%201/token")
    }
}
