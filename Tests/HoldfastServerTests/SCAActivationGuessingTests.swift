import Crypto
import Foundation
import HoldfastAdmin
import HoldfastProtocol
@testable import HoldfastServer
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

/// Guessing SCA activation codes (README "SCA wallet (back end)"): a wrong code is refused before anything costly (its
/// challenge is still good afterwards), an activation refuses every code after five wrong ones for it, and past the
/// tenant's hourly budget of wrong codes no code is checked until the hour ends.
@Suite struct SCAActivationGuessingTests {
    static func createWallet(_ kit: ServerTestKit, applicationId: String) async throws -> SCAWalletCreated {
        let created = try await kit.admin(SCARoutes.Template.wallets, .post, #"{"applicationId":"\#(applicationId)","userId":"user-1"}"#)
        try #require(created.status == .created, "\(created.text)")
        return try HoldfastJSON.decode(SCAWalletCreated.self, from: Data(created.body.readableBytesView))
    }

    static func activate(_ kit: ServerTestKit, code: String, registration: InstanceRegistrationRequest) async throws -> TestResponse {
        let request = SCAActivationRequest(activationCode: code, challenge: registration.challenge, publicKey: registration.publicKey,
                                           assertion: registration.assertion, device: .init(model: "iPhone16,1", appVersion: "2.4.0"))
        return try await kit.client.execute(uri: SCARoutes.Template.activations.template, method: .post, headers: .json(bearer: nil),
                                            body: jsonBody(String(decoding: try HoldfastJSON.encode(request), as: UTF8.self)))
    }

    /// The same code with its secret half changed: a wrong code for the same activation.
    static func wrongSecret(_ code: String, _ index: Int) -> String {
        let secret = String(format: "%04d-%04d", index, 9_999 - index)
        return code.hasSuffix(secret) ? String(code.prefix(10)) + "1111-1111" : String(code.prefix(10)) + secret
    }

    @Test func codesHaveASelectorAndASecret() {
        let code = SCAWalletService.activationCode()
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

    @Test(arguments: StorageBackend.available)
    func pastTheHourlyBudgetOfWrongCodesNoCodeIsCheckedUntilTheHourEnds(_ backend: StorageBackend) async throws {
        try await ServerTestKit.run(backend) { kit in
            let applicationId = try #require(try await kit.createApplication(ServerTestKit.iosApplication()).id)
            let wallet = try await Self.createWallet(kit, applicationId: applicationId)
            try await TestServices.with(kit.configuration) { services in
                let challenges = ChallengeStore(tokens: services.tokens, spent: services.ephemeral.challenges, lifetime: .seconds(60))
                var service = SCAServices(database: services.database, logger: services.logger).activation(
                    keys: NewKeyVerification(challenges: challenges, evidence: KeyEvidenceVerifier(
                        configuration: services.configuration.tethering, revocations: services.androidRevocations)))
                service.maximumFailuresPerHour = 3
                // Within the hour of the wallet's code (it lives 15 minutes).
                let now = Date()
                // Wrong codes from anywhere: none of them names an activation.
                for guess in ["1234-5678-9012-3456", "0000-0000-0000-0000", "0000-0000-0000"] {
                    await #expect(throws: SCAError.invalidActivationCode) { _ = try await service.matchingActivation(code: guess, now: now) }
                }
                do {
                    _ = try await service.matchingActivation(code: wallet.activationCode, now: now)
                    Issue.record("a code was checked past the budget")
                } catch let problem as SCAError {
                    #expect(problem.problemCode == .activationAttemptsExhausted && problem.problemStatus == .tooManyRequests)
                    let retryAfter = try #require(problem.problemHeaders[.retryAfter].flatMap(Int.init))
                    #expect((1...3_600).contains(retryAfter))
                }
                // The budget is per hour: in the next hour codes are checked again (a wrong one is just wrong).
                let hour = Timestamp.milliseconds(now) / 3_600_000
                let nextHour = Date(timeIntervalSince1970: TimeInterval((hour + 1) * 3_600))
                do {
                    _ = try await service.matchingActivation(code: "1234-5678-9012-3456", now: nextHour)
                    Issue.record("a wrong code was taken")
                } catch let problem as SCAError {
                    #expect(problem.problemCode == .invalidActivationCode)
                }
            }
        }
    }
}
