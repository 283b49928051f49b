import Crypto
import Foundation
import HoldfastAdmin
import HoldfastProtocol
@testable import HoldfastServer
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import JOSE
import Testing

/// docs/server-api.md "SCA wallet (back end)": the customer's credentials enrolled with the tenant (docs/DESIGN.md "The SCA
/// wallet's PIN"), PIN or biometry each with its key, the proof counter that finds a clone, and eligibility lost or a
/// sunset passed refusing an otherwise honest proof.
@Suite struct SCACredentialsAndCloneTests {
    static let url = "\(SCAWalletTests.base)/v1/beneficiaries"
    static let body: JSONValue = .object(["name": .string("Alex Martin"), "iban": .string("FR7630001007941234567890185")])

    static func code(_ kit: ServerTestKit, _ proof: String) async throws -> SCAProofFailureCode? {
        let verification = try await SCAWalletTests.verify(kit, proof: proof, method: "POST", url: url, body: body)
        return verification.valid ? nil : verification.code
    }

    static func events(_ kit: ServerTestKit, _ walletId: String) async throws -> [String] {
        try await TestServices.with(kit.configuration) { services in
            try await services.database.sql.raw("SELECT type, data FROM sca_events WHERE wallet_id = \(bind: walletId) ORDER BY sequence").all()
                .map { "\(try $0.decode(column: "type", as: String.self)) \(try $0.decode(column: "data", as: String.self))" }
        }
    }

    @Test(arguments: StorageBackend.available)
    func enrolmentTakesWhatTheProtectionNeedsAndTheCurrentPINToChangeIt(_ backend: StorageBackend) async throws {
        try await ServerTestKit.run(backend) { kit in
            let applicationId = try #require(try await kit.createApplication(ServerTestKit.iosApplication()).id)
            #expect(try await kit.admin(SCARoutes.Template.policies, .put, SCAWalletTests.policies).status == .ok)
            let (key, walletId, _) = try await SCAWalletTests.activatedWallet(kit, applicationId: applicationId)
            let first = try #require(SCAWalletTests.enrolled.withLock { $0[walletId] })
            let next = SCAWalletTests.Enrolled(pinSecret: SCAWalletTests.random(), keyShare: SCAWalletTests.random(),
                                               pinKey: P256.Signing.PrivateKey(), biometryKey: nil)
            // Without the current PIN, or with a wrong one (counted): not taken.
            #expect(try await SCAWalletTests.enrol(kit, walletId: walletId, key: key, next).problem?.errors?.first?.field == "currentPinSecret")
            let wrong = try await SCAWalletTests.enrol(kit, walletId: walletId, key: key, next, current: SCAWalletTests.random())
            #expect(try wrong.wire(SCAPinAttemptResult.self) == SCAPinAttemptResult(outcome: .failure, pinAttemptsLeft: 2, state: "active"))
            #expect(try await Self.code(kit, try SCAWalletTests.proof(walletId: walletId, key: key, method: "POST", url: Self.url, body: Self.body)) == nil)
            // A biometry key on a PIN wallet is refused; so is a PIN wallet's enrolment without its key share.
            let withBiometry = SCAWalletTests.Enrolled(pinSecret: next.pinSecret, keyShare: next.keyShare, pinKey: next.pinKey,
                                                       biometryKey: P256.Signing.PrivateKey())
            #expect(try await SCAWalletTests.enrol(kit, walletId: walletId, key: key, withBiometry, current: first.pinSecret)
                .problem?.errors?.first?.field == "biometryKey")
            // With the current PIN: the new credentials replace the old; the old PIN key no longer signs.
            let changed = try await SCAWalletTests.enrol(kit, walletId: walletId, key: key, next, current: first.pinSecret)
            #expect(try changed.wire(SCAPinAttemptResult.self) == SCAPinAttemptResult(outcome: .success, pinAttemptsLeft: 3, state: "active"))
            #expect(try await Self.code(kit, try SCAWalletTests.proof(walletId: walletId, key: key, method: "POST", url: Self.url, body: Self.body,
                                                                      signingKey: first.pinKey)) == SCAProofFailureCode.signatureInvalid)
            #expect(try await Self.code(kit, try SCAWalletTests.proof(walletId: walletId, key: key, method: "POST", url: Self.url, body: Self.body,
                                                                      signingKey: next.pinKey)) == nil)
            // A reset drops them: no pin proof verifies, no PIN is checked, until new ones are enrolled (without a current PIN).
            #expect(try await kit.admin(SCAAdminRoutes.Template.resetCredentials, ["walletId": walletId], .put).status == .ok)
            #expect(try await Self.code(kit, try SCAWalletTests.proof(walletId: walletId, key: key, method: "POST", url: Self.url, body: Self.body,
                                                                      signingKey: next.pinKey)) == SCAProofFailureCode.signatureInvalid)
            let attempt = #"{"pinSecret":"\#(Base64URL.encode(next.pinSecret))"}"#
            #expect(try await SCAWalletTests.device(kit, .post, SCARoutes.Template.pinAttempts, walletId: walletId, key: key, body: attempt).0.status == .conflict)
            #expect(try await SCAWalletTests.enrol(kit, walletId: walletId, key: key, first).status == .ok)
        }
    }

    @Test(arguments: StorageBackend.available)
    func pinOrBiometryEachSignsWithItsOwnKey(_ backend: StorageBackend) async throws {
        try await ServerTestKit.run(backend) { kit in
            let applicationId = try #require(try await kit.createApplication(ServerTestKit.iosApplication()).id)
            #expect(try await kit.admin(SCARoutes.Template.policies, .put, SCAWalletTests.policies).status == .ok)
            let (key, walletId, _) = try await SCAWalletTests.activatedWallet(kit, applicationId: applicationId, protection: .pinOrBiometric)
            let wallet = try await kit.admin(SCARoutes.Template.wallet, ["walletId": walletId], .get).wire(SCAWallet.self)
            #expect(wallet.accessProtection == .pinOrBiometric)
            let credentials = try #require(SCAWalletTests.enrolled.withLock { $0[walletId] })
            let biometryKey = try #require(credentials.biometryKey)
            for pattern in [SCAPattern.pin, .biometry] {
                let verification = try await SCAWalletTests.verify(
                    kit, proof: try SCAWalletTests.proof(walletId: walletId, key: key, method: "POST", url: Self.url, body: Self.body, pattern: pattern),
                    method: "POST", url: Self.url, body: Self.body)
                #expect(verification.valid && verification.pattern == pattern, "\(verification)")
            }
            // Each pattern's claim is its key's: biometry claimed over the PIN key's signature, or the other way round, fails.
            #expect(try await Self.code(kit, try SCAWalletTests.proof(walletId: walletId, key: key, method: "POST", url: Self.url, body: Self.body,
                                                                      pattern: .biometry, signingKey: credentials.pinKey)) == SCAProofFailureCode.signatureInvalid)
            #expect(try await Self.code(kit, try SCAWalletTests.proof(walletId: walletId, key: key, method: "POST", url: Self.url, body: Self.body,
                                                                      pattern: .pin, signingKey: biometryKey)) == SCAProofFailureCode.signatureInvalid)
            // A biometric wallet's credentials are set once: new ones only after the back end reset them.
            let (bioKey, bioWallet, _) = try await SCAWalletTests.activatedWallet(kit, applicationId: applicationId, userId: "user-2", protection: .biometric)
            let again = SCAWalletTests.Enrolled(pinSecret: [], keyShare: [], pinKey: P256.Signing.PrivateKey(), biometryKey: P256.Signing.PrivateKey())
            #expect(try await SCAWalletTests.enrol(kit, walletId: bioWallet, key: bioKey, again, protection: .biometric).status == .conflict)
            // An unknown protection is refused with the field at fault.
            let unknown = try await kit.admin(SCARoutes.Template.wallets, .post,
                                              #"{"applicationId":"\#(applicationId)","userId":"u","settings":{"accessProtection":"faceAndPin"}}"#)
            #expect(unknown.problem?.errors?.first?.field == "settings.accessProtection")
        }
    }

    /// A copy of the wallet signs too: its counter runs behind (or level with) the device's, and the tenant, which
    /// requires each accepted proof's counter to be above the last, refuses it and locks the wallet.
    @Test(arguments: StorageBackend.available)
    func aRepeatedOrStaleCounterLocksTheWalletForFraudSuspicion(_ backend: StorageBackend) async throws {
        try await ServerTestKit.run(backend) { kit in
            let applicationId = try #require(try await kit.createApplication(ServerTestKit.iosApplication()).id)
            #expect(try await kit.admin(SCARoutes.Template.policies, .put, SCAWalletTests.policies).status == .ok)
            for (user, counter) in [("repeated", Int64(10)), ("stale", Int64(9))] {
                let (key, walletId, _) = try await SCAWalletTests.activatedWallet(kit, applicationId: applicationId, userId: user)
                func proof(_ counter: Int64) throws -> String {
                    try SCAWalletTests.proof(walletId: walletId, key: key, method: "POST", url: Self.url, body: Self.body, counter: counter)
                }
                #expect(try await Self.code(kit, try proof(10)) == nil)
                let verification = try await SCAWalletTests.verify(kit, proof: try proof(counter), method: "POST", url: Self.url, body: Self.body)
                #expect(!verification.valid && verification.code == SCAProofFailureCode.fraudSuspicion && verification.code?.rawValue == "FRAUD_SUSPICION")
                let wallet = try await kit.admin(SCARoutes.Template.wallet, ["walletId": walletId], .get).wire(SCAWallet.self)
                #expect(wallet.state == .locked && wallet.lockReason == .fraudSuspicion)
                #expect(try await Self.events(kit, walletId).last == #"locked {"reason":"FRAUD_SUSPICION"}"#)
                // Locked: even the device's next honest proof is refused until the back end unlocks it.
                #expect(try await Self.code(kit, try proof(11)) == SCAProofFailureCode.walletLocked)
                _ = try await kit.admin(SCAAdminRoutes.Template.unlock, ["walletId": walletId], .put)
                #expect(try await Self.code(kit, try proof(12)) == nil)
            }
        }
    }

    /// The tenant judges every proof by the eligibility rules as they stand: each refusal with an otherwise honest proof.
    @Test(arguments: StorageBackend.available)
    func anIneligibleOrSunsetWalletsProofsAreRefused(_ backend: StorageBackend) async throws {
        try await ServerTestKit.run(backend) { kit in
            let applicationId = try #require(try await kit.createApplication(ServerTestKit.iosApplication()).id)
            #expect(try await kit.admin(SCARoutes.Template.policies, .put, SCAWalletTests.policies).status == .ok)
            let (key, walletId, _) = try await SCAWalletTests.activatedWallet(kit, applicationId: applicationId)   // iPhone16,1, app 2.4.0
            func honest() throws -> String { try SCAWalletTests.proof(walletId: walletId, key: key, method: "POST", url: Self.url, body: Self.body) }
            func rules(_ rules: SCAEligibilityRules) async throws {
                #expect(try await kit.admin(SCARoutes.Template.eligibility, .put, String(decoding: try HoldfastJSON.encode(rules), as: UTF8.self)).status == .ok)
            }
            #expect(try await Self.code(kit, try honest()) == nil)
            try await rules(SCAEligibilityRules(blockedDeviceModels: ["iPhone16,1"]))
            #expect(try await Self.code(kit, try honest()) == SCAProofFailureCode.deviceIneligible)
            try await rules(SCAEligibilityRules(minimumAppVersions: [SCAMinimumAppVersion(version: "2.5")]))
            #expect(try await Self.code(kit, try honest()) == SCAProofFailureCode.deviceIneligible)
            try await rules(SCAEligibilityRules(minimumAppVersions: [SCAMinimumAppVersion(version: "2.5", sunsetAt: Date().addingTimeInterval(3_600))]))
            #expect(try await Self.code(kit, try honest()) == nil)
            try await rules(SCAEligibilityRules(minimumAppVersions: [SCAMinimumAppVersion(version: "2.5", sunsetAt: Date().addingTimeInterval(-1))]))
            let sunset = try await SCAWalletTests.verify(kit, proof: try honest(), method: "POST", url: Self.url, body: Self.body)
            #expect(sunset.code == SCAProofFailureCode.appVersionSunset && sunset.code?.rawValue == "APP_SUNSET")
            #expect(SCAProofFailureCode.deviceIneligible.rawValue == "DEVICE_NOT_ELIGIBLE")
            try await rules(SCAEligibilityRules())
            #expect(try await Self.code(kit, try honest()) == nil)
        }
    }
}
