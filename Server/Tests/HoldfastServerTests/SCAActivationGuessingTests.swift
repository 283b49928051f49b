import Crypto
import Foundation
import HoldfastAdmin
import HoldfastProtocol
@testable import HoldfastServer
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import Testing

/// Guessing SCA activation codes (docs/server-api.md "SCA wallet (back end)"): a wrong code is refused before anything costly (its
/// challenge is still good afterwards), an activation refuses every code after five wrong ones for it, a source past
/// its 20 wrong codes of the hour is refused until the hour ends, and over all sources wrong codes are counted and
/// logged, never a stop.
@Suite struct SCAActivationGuessingTests {
    static func createWallet(_ kit: ServerTestKit, applicationId: String) async throws -> SCAWalletCreated {
        let created = try await kit.admin(SCARoutes.Template.wallets, .post, #"{"applicationId":"\#(applicationId)","userId":"user-1"}"#)
        try #require(created.status == .created, "\(created.text)")
        return try HoldfastJSON.decode(SCAWalletCreated.self, from: Data(created.body.readableBytesView))
    }

    static func activate(_ kit: ServerTestKit, code: String, registration: InstanceRegistrationRequest,
                         from client: String? = nil) async throws -> TestResponse {
        let request = SCAActivationRequest(activationCode: code, challenge: registration.challenge, publicKey: registration.publicKey,
                                           assertion: registration.assertion, device: .init(model: "iPhone16,1", appVersion: "2.4.0"))
        var headers = HTTPFields.json(bearer: nil)
        if let client { headers[PublicRouteLimit.forwardedFor] = client }
        return try await kit.client.execute(uri: SCARoutes.Template.activations.template, method: .post, headers: headers,
                                            body: jsonBody(String(decoding: try HoldfastJSON.encode(request), as: UTF8.self)))
    }

    /// The same code with its secret half changed: a wrong code for the same activation.
    static func wrongSecret(_ code: String, _ index: Int) -> String {
        let secret = String(format: "%04d-%04d", index, 9_999 - index)
        return code.hasSuffix(secret) ? String(code.prefix(10)) + "1111-1111" : String(code.prefix(10)) + secret
    }

    @Test func codesHaveASelectorAndASecret() {
        let code = SCAWalletService.activationCode(random: SystemRandomSource())
        #expect(code.utf8.count == 19 && SCAWalletService.selector(of: code) == String(code.prefix(9)))
        for other in ["0000-0000-0000", "0000-0000-0000-000a", "00000-000-0000-0000", "", "0000-0000-0000-0000-"] {
            #expect(SCAWalletService.selector(of: other) == nil, "\(other)")
        }
    }

    @Test(arguments: StorageBackend.available)
    func aWrongCodeIsRefusedBeforeTheChallengeIsSpent(_ backend: StorageBackend) async throws {
        try await ServerTestKit.run(backend) { kit in
            let applicationId = try #require(try await kit.createApplication(ServerTestKit.iosApplication()).id)
            let wallet = try await Self.createWallet(kit, applicationId: applicationId)
            let registration = try ServerTestKit.registration(challenge: try await kit.challenge(applicationId), key: P256.Signing.PrivateKey())
            let wrong = try await Self.activate(kit, code: Self.wrongSecret(wallet.activationCode, 1), registration: registration)
            #expect(wrong.status == .badRequest && wrong.problem?.code == .invalidActivationCode, "\(wrong.text)")
            // The challenge was not consumed, nor the key's evidence looked at: the same request with the right code works.
            let right = try await Self.activate(kit, code: wallet.activationCode, registration: registration)
            #expect(right.status == .created, "\(right.text)")
        }
    }

    @Test(arguments: StorageBackend.available)
    func anActivationLocksAfterFiveWrongCodesForItAndANewWalletIsNotLocked(_ backend: StorageBackend) async throws {
        try await ServerTestKit.run(backend) { kit in
            let applicationId = try #require(try await kit.createApplication(ServerTestKit.iosApplication()).id)
            let wallet = try await Self.createWallet(kit, applicationId: applicationId)
            let other = try await Self.createWallet(kit, applicationId: applicationId)
            for index in 0..<Int(SCAActivationService.maximumFailuresPerActivation) {
                let registration = try ServerTestKit.registration(challenge: try await kit.challenge(applicationId), key: P256.Signing.PrivateKey())
                let wrong = try await Self.activate(kit, code: Self.wrongSecret(wallet.activationCode, index), registration: registration)
                #expect(wrong.problem?.code == .invalidActivationCode, "wrong code \(index): \(wrong.text)")
            }
            let registration = try ServerTestKit.registration(challenge: try await kit.challenge(applicationId), key: P256.Signing.PrivateKey())
            let locked = try await Self.activate(kit, code: wallet.activationCode, registration: registration)
            #expect(locked.status == .badRequest && locked.problem?.code == .activationLocked, "\(locked.text)")
            #expect(try await kit.admin(SCARoutes.Template.wallet, ["walletId": wallet.walletId], .get).wire(SCAWallet.self).state == "pending")
            // Another activation is not affected; the back end's new wallet (a new code) activates.
            #expect(try await Self.activate(kit, code: other.activationCode, registration: registration).status == .created)
            let again = try await Self.createWallet(kit, applicationId: applicationId)
            let fresh = try ServerTestKit.registration(challenge: try await kit.challenge(applicationId), key: P256.Signing.PrivateKey())
            #expect(try await Self.activate(kit, code: again.activationCode, registration: fresh).status == .created)
        }
    }

    /// The activation service of `services`, as the server builds it.
    static func activationService(_ services: ServerServices, logger: Logger? = nil) -> SCAActivationService {
        let challenges = ChallengeStore(tokens: services.tokens, spent: services.ephemeral.challenges, lifetime: .seconds(60))
        return SCAServices(database: services.database, logger: logger ?? services.logger, random: services.random).activation(
            keys: NewKeyVerification(challenges: challenges, evidence: KeyEvidenceVerifier(
                configuration: services.configuration.tethering, revocations: services.androidRevocations)),
            counters: services.ephemeral.challenges, metrics: services.metrics)
    }

    static func source(_ address: String) throws -> SourceKey {
        SourceKey(try #require(IPAddress(Substring(address))))
    }

    @Test(arguments: StorageBackend.available)
    func aSourcePastTwentyWrongCodesThisHourIsRefusedUntilTheHourEnds(_ backend: StorageBackend) async throws {
        try await ServerTestKit.run(backend) { kit in
            let applicationId = try #require(try await kit.createApplication(ServerTestKit.iosApplication()).id)
            let wallet = try await Self.createWallet(kit, applicationId: applicationId)
            try await TestServices.with(kit.configuration) { services in
                let service = Self.activationService(services)
                // Within the hour of the wallet's code (it lives 15 minutes).
                let now = Date()
                // An IPv6 source is its /64: the interface id changes nothing.
                let guesser = try Self.source("2001:db8:1:1::1")
                for index in 0..<Int(SCAActivationService.maximumFailuresPerSource) {
                    let guess = String(format: "%04d-0000-0000-0000", index)
                    await #expect(throws: SCAError.invalidActivationCode) {
                        _ = try await service.matchingActivation(code: guess, source: guesser, now: now)
                    }
                }
                do {
                    _ = try await service.matchingActivation(code: wallet.activationCode, source: try Self.source("2001:db8:1:1::ffff"), now: now)
                    Issue.record("a code was checked past the source's budget")
                } catch let problem as SCAError {
                    #expect(problem.problemCode == .activationAttemptsExhausted && problem.problemStatus == .tooManyRequests)
                    let retryAfter = try #require(problem.problemHeaders[.retryAfter].flatMap(Int64.init))
                    let rest = ((Timestamp.milliseconds(now) / 3_600_000 + 1) * 3_600_000 - Timestamp.milliseconds(now) + 999) / 1_000
                    #expect(retryAfter == max(1, rest))
                }
                // Another /64, and an IPv4 source, still have their budgets: the right code matches.
                #expect(try await service.matchingActivation(code: wallet.activationCode, source: try Self.source("2001:db8:1:2::1"),
                                                             now: now).walletId == wallet.walletId)
                #expect(try await service.matchingActivation(code: wallet.activationCode, source: try Self.source("192.0.2.1"),
                                                             now: now).walletId == wallet.walletId)
                // The budget is per hour: in the next hour the source's codes are checked again (a wrong one is just wrong).
                let hour = Timestamp.milliseconds(now) / 3_600_000
                let nextHour = Date(timeIntervalSince1970: TimeInterval((hour + 1) * 3_600))
                await #expect(throws: SCAError.invalidActivationCode) {
                    _ = try await service.matchingActivation(code: "1234-5678-9012-3456", source: guesser, now: nextHour)
                }
            }
        }
    }

    @Test(arguments: StorageBackend.available)
    func wrongCodesOverAllSourcesAreCountedAndLoggedNeverAStop(_ backend: StorageBackend) async throws {
        try await ServerTestKit.run(backend) { kit in
            let applicationId = try #require(try await kit.createApplication(ServerTestKit.iosApplication()).id)
            let wallet = try await Self.createWallet(kit, applicationId: applicationId)
            try await TestServices.with(kit.configuration) { services in
                let recorder = LogRecorder()
                var service = Self.activationService(services, logger: recorder.logger)
                service.warningFailuresPerHour = 100
                let now = Date()
                // 10 sources give 20 wrong codes each, the whole of their budgets: twice the warning threshold.
                for client in 0..<10 {
                    let source = try Self.source("198.51.100.\(client + 1)")
                    for guess in 0..<Int(SCAActivationService.maximumFailuresPerSource) {
                        await #expect(throws: SCAError.invalidActivationCode) {
                            _ = try await service.matchingActivation(code: String(format: "%04d-%04d-0000-0000", client, guess), source: source,
                                                                     now: now)
                        }
                    }
                }
                #expect(recorder.events.filter { $0 == SCAActivationService.failuresEvent }.count == 2)
                #expect(services.metrics.exposition().contains("\(SCAActivationService.failuresMetric) 200"),
                        "\(services.metrics.exposition())")
                // Nothing is stopped for anyone else.
                #expect(try await service.matchingActivation(code: wallet.activationCode, source: try Self.source("203.0.113.9"),
                                                             now: now).walletId == wallet.walletId)
            }
        }
    }

    /// Over HTTP, the source is the connection's peer or, from a trusted proxy, the forwarded client
    /// (`RequestSource`): the test server trusts its own loopback peer and names the client in `X-Forwarded-For`.
    /// The clock stands still in the middle of the current hour: a source's budget is per hour, and a run crossing the
    /// top of one would be given a second budget.
    @Test func aThousandWrongCodesFromOneSourceLeaveAnotherSourcesActivationWorking() async throws {
        let hourStart = (Date().timeIntervalSince1970 / 3_600).rounded(.down) * 3_600
        try await ServerTestKit.run(.sqlite, clock: ManualClock(Date(timeIntervalSince1970: hourStart + 1_800)), testing: .live, configure: {
            try? $0.rateLimit.setTrustedProxies("127.0.0.1, ::1")
        }) { kit in
            let applicationId = try #require(try await kit.createApplication(ServerTestKit.iosApplication()).id)
            let wallet = try await Self.createWallet(kit, applicationId: applicationId)
            let registration = try ServerTestKit.registration(challenge: try await kit.challenge(applicationId), key: P256.Signing.PrivateKey())
            var statuses: [String: Int] = [:]
            for index in 0..<1_000 {
                // Guesses at other selectors: the wallet's own activation would lock after five (ACTIVATION_LOCKED).
                var guess = String(format: "%04d-%04d-1234-5678", index / 100, index % 100)
                if guess.prefix(9) == wallet.activationCode.prefix(9) { guess = "9999-9999-1234-5678" }
                let wrong = try await Self.activate(kit, code: guess, registration: registration, from: "127.0.0.2")
                statuses[wrong.problem?.code?.rawValue ?? "\(wrong.status.code)", default: 0] += 1
                if wrong.status == .tooManyRequests {
                    #expect(wrong.headers[.retryAfter].flatMap(Int.init).map { (1...3_600).contains($0) } == true, "\(wrong.text)")
                }
            }
            #expect(statuses == [HoldfastErrorCode.invalidActivationCode.rawValue: 20, HoldfastErrorCode.activationAttemptsExhausted.rawValue: 980],
                    "\(statuses)")
            // The guesser's source is still refused, with the right code too.
            #expect(try await Self.activate(kit, code: wallet.activationCode, registration: registration, from: "127.0.0.2").status == .tooManyRequests)
            let activated = try await Self.activate(kit, code: wallet.activationCode, registration: registration, from: "127.0.0.3")
            #expect(activated.status == .created, "\(activated.text)")
        }
    }
}
