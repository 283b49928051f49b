@testable import holdfast
import Testing

/// `holdfast demo` (docs/command-line.md "The `holdfast` command"): its core runs every step against its own in-process tenant.
@Suite struct DemoEndToEndTests {
    @Test func demoRunsEveryStepToItsExpectedOutcome() async throws {
        let steps = try await DemoRunner(serverLogger: nil).run()
        let failed = steps.filter { $0.outcome == .failed }
        #expect(failed.isEmpty, "failed: \(failed.map { "\($0.id): \($0.details)" })")
        #expect(steps.map(\.id) == ["tenant", "ios-application", "android-application", "register", "list", "renew",
                                    "rotate", "wallet-attestation", "credential-configuration", "offer", "claim",
                                    "credential-valid", "verifier", "present", "revoke", "status-cached", "presentation-refused",
                                    "status-revoked", "status-unknown", "sca-wallet", "sca-provision", "sca-sign", "sca-verify",
                                    "sca-lockout", "sca-unlock", "delete", "renewal-refused"])
        #expect(steps.first { $0.id == "sca-verify" }?.detail("pattern") == "pin")
        #expect(steps.first { $0.id == "sca-lockout" }?.detail("answers") == "WRONG_CREDENTIALS, WRONG_CREDENTIALS, WALLET_LOCKED")
        #expect(steps.first { $0.id == "sca-lockout" }?.detail("tenant") == "locked (PIN_ATTEMPTS)")
        #expect(steps.first { $0.id == "sca-unlock" }?.detail("pinAttemptsLeft") == "3")
        #expect(steps.map(\.number) == Array(1 ... steps.count))
        let register = try #require(steps.first { $0.id == "register" })
        #expect(register.detail("secondCall") == "alreadyRegistered")
        #expect(steps.first { $0.id == "list" }?.detail("appAttestationType") == "none")
        // The renewed expiry is shown next to the previous one, and differs from it.
        let renew = try #require(steps.first { $0.id == "renew" })
        #expect(renew.detail("previousExpiresAt") != nil && renew.detail("previousExpiresAt") != renew.detail("licenseExpiresAt"))
        let rotate = try #require(steps.first { $0.id == "rotate" })
        #expect(rotate.detail("instanceId") == register.detail("instanceId"))
        #expect(rotate.detail("oldKey") != rotate.detail("newKey"))
        #expect(steps.first { $0.id == "wallet-attestation" }?.detail("clientId") == "demo-wallet-ios")
        #expect(steps.first { $0.id == "credential-valid" }?.detail("family_name") == "Doe")
        #expect(steps.first { $0.id == "status-cached" }?.detail("status") == "valid")
        let present = try #require(steps.first { $0.id == "present" })
        #expect(present.detail("result") == "verified" && present.detail("family_name") == "Doe")
        #expect(present.detail("birth_date") == "1990-02-28" && present.detail("given_name") == "not sent")
        #expect(steps.first { $0.id == "presentation-refused" }?.detail("failure") == "STATUS_REVOKED")
        #expect(steps.first { $0.id == "status-revoked" }?.detail("failureType") == "statusRevoked")
        #expect(steps.first { $0.id == "status-unknown" }?.detail("failureType") == "statusUnknown")
        let refused = try #require(steps.first { $0.id == "renewal-refused" })
        #expect(refused.detail("code") == "INSTANCE_REVOKED")
        #expect(refused.detail("localStateCleared") == "true")
    }

    @Test func demoStepRendersTitleOutcomeAndDetails() {
        let step = DemoStep(id: "x", number: 3, title: "Do it", explanation: "Why.", outcome: .failed,
                            details: [.init("code", "INSTANCE_REVOKED")])
        let text = DemoCommand.render(step)
        #expect(text.contains("  3. Do it … FAILED"))
        #expect(text.contains("code  INSTANCE_REVOKED"))
    }
}
