import Crypto
import Foundation
import HoldfastProtocol
@testable import HoldfastSDK
import JOSE
import Testing

/// One device with an SCA wallet manager, talking to a `FakeWalletTenant`.
struct WalletRig {
    let clock = ManualClock(Date(timeIntervalSince1970: 1_800_000_000))
    let storage = MemorySecureStorage()
    let tenant: FakeWalletTenant
    let secureArea: SoftwareSecureArea
    let userVerification: ScriptedUserVerification
    let manager: WalletManager

    init(userVerification: ScriptedUserVerification = ScriptedUserVerification()) throws {
        tenant = FakeWalletTenant(clock: clock)
        secureArea = SoftwareSecureArea(storage: storage)
        self.userVerification = userVerification
        let seams = PlatformSeams(secureStorage: storage, secureArea: secureArea, transport: tenant, clock: clock,
                                  sleeper: RecordingSleeper(), deviceInfo: DeviceInfo(deviceModel: "sim-1", deviceMake: "Holdfast", osVersion: "1.0"),
                                  jitter: { 1.0 }, userVerification: userVerification)
        manager = try WalletManager(seams: seams, configuration: WalletConfiguration(
            platform: PlatformConfiguration(tenantHost: "tenant.test", applicationId: "app-1"), appVersion: "2.4.1"))
    }

    /// Provisions with the tenant's code; returns the wallet id.
    func provision() async throws -> String {
        let code = await tenant.activationCode
        guard case .provisioningSuccess(let walletId) = await manager.provisioning.provision(activationCode: code) else {
            throw HoldfastError(.invalidResponse, "provisioning failed")
        }
        return walletId
    }

    /// Provisions and connects with a new PIN; returns the connected wallet.
    func connected(pin: String = "123456") async throws -> Wallet {
        _ = try await provision()
        guard case .connectionSuccess(let wallet) = await manager.connect(newCredentials: .pin(pin)) else {
            throw HoldfastError(.invalidResponse, "connect failed")
        }
        return wallet
    }

    var keyAlias: String { "holdfast.sca-wallet.app-1" }
}

/// README "SCA wallet (device)": provisioning with the one-time code.
@Suite struct SCAWalletProvisioningTests {
    @Test func anEligibleDeviceHearsItsFeaturesAndTheScheduledSunset() async throws {
        let rig = try WalletRig()
        let sunset = Date(timeIntervalSince1970: 1_900_000_000)
        await rig.tenant.setEligibility(SCAEligibilityCheckResponse(eligible: true, appSunset: SCAMinimumAppVersion(version: "3.0", sunsetAt: sunset)))
        let events = rig.manager.events
        let result = await rig.manager.provisioning.checkEligibility()
        // Biometry is available on the scripted device; platform attestation is not.
        #expect(result == .deviceEligible([.pin, .biometry]))
        let sent = try #require(await rig.tenant.lastRequest("eligibility")?.body)
        let request = try HoldfastJSON.decode(SCAEligibilityCheckRequest.self, from: sent)
        #expect(request.applicationId == "app-1" && request.device.model == "sim-1" && request.device.appVersion == "2.4.1")
        #expect(request.integrity.compromised == false)
        var iterator = events.makeAsyncIterator()
        #expect(await iterator.next() == .appSunsetScheduled(minimumVersion: "3.0", sunsetAt: sunset))
    }

    @Test func aDeniedDeviceGetsTheReasonAndTheReference() async throws {
        let rig = try WalletRig()
        await rig.tenant.setEligibility(SCAEligibilityCheckResponse(eligible: false, reason: SCAIneligibilityReason.deviceModelBlocked,
                                                                    denialReference: "DEN-1"))
        #expect(await rig.manager.provisioning.checkEligibility() == .deviceNotEligible(reason: .deviceModelBlocked,
                                                                                        denialReference: "DEN-1"))
    }

    @Test func theTenantsRefusalOfTheCheckIsAnError() async throws {
        let rig = try WalletRig()
        await rig.tenant.inject(.problem(429, .rateLimited), on: "eligibility")
        guard case .checkEligibilityError(let error) = await rig.manager.provisioning.checkEligibility() else {
            Issue.record("expected an error")
            return
        }
        #expect(error.code == .rateLimited && error.httpStatus == 429)
    }

    @Test func provisioningRegistersTheKeyAndStoresTheWalletAsTheTenantSaid() async throws {
        let rig = try WalletRig()
        let walletId = try await rig.provision()
        #expect(walletId == rig.tenant.walletId)
        let activation = try #require(await rig.tenant.activations.last)
        #expect(activation.device?.model == "sim-1" && activation.device?.appVersion == "2.4.1")
        // The key the tenant registered is the one in the secure area.
        let registered = try #require(await rig.tenant.walletKey)
        let held = try #require(try await rig.secureArea.publicKey(alias: rig.keyAlias))
        #expect(registered.key.rawRepresentation == held.rawRepresentation)
        let status = try await rig.manager.status()
        #expect(status.state == .ready && status.walletId == walletId && status.userId == "user-1")
        #expect(status.accessProtection == "pin" && status.credentialsSet == false)
        #expect(status.maxPinAttempts == 3 && status.pinAttemptsLeft == 3 && status.lastEventId == 0)
        // Its credentials are still to set: the next connection asks for new ones.
        guard case .credentialsRequired(.new) = await rig.manager.connect() else {
            Issue.record("expected credentialsRequired(.new)")
            return
        }
    }

    @Test func theCodeIsTrimmedBeforeItIsSent() async throws {
        let rig = try WalletRig()
        let result = await rig.manager.provisioning.provision(activationCode: "  1234-5678-9012-3456 ")
        #expect(result == .provisioningSuccess(walletId: rig.tenant.walletId))
        #expect(await rig.tenant.activations.last?.activationCode == "1234-5678-9012-3456")
    }

    @Test func aRefusedCodeLeavesNothingOnTheDevice() async throws {
        let rig = try WalletRig()
        guard case .provisioningError(let error) = await rig.manager.provisioning.provision(activationCode: "0000-0000-0000-0000") else {
            Issue.record("a wrong code was taken")
            return
        }
        #expect(error.code == .invalidActivationCode && error.httpStatus == 400)
        #expect(try await rig.manager.state() == .notProvisioned)
        #expect(try await rig.secureArea.publicKey(alias: rig.keyAlias) == nil)
    }

    @Test func anEmptyCodeIsRefusedBeforeAnyCall() async throws {
        let rig = try WalletRig()
        guard case .provisioningError(let error) = await rig.manager.provisioning.provision(activationCode: "   ") else {
            Issue.record("an empty code was taken")
            return
        }
        #expect(error.code == .validationFailed)
        #expect(await rig.tenant.count("challenges") == 0)
        #expect(await rig.tenant.count("activations") == 0)
    }

    @Test func aSecondProvisioningIsRefused() async throws {
        let rig = try WalletRig()
        _ = try await rig.provision()
        guard case .provisioningError(let error) = await rig.manager.provisioning.provision(activationCode: "1234-5678-9012-3456") else {
            Issue.record("a second wallet was provisioned")
            return
        }
        #expect(error.code == .walletAlreadyProvisioned)
        #expect(await rig.tenant.activations.count == 1)
    }
}

/// README "SCA wallet (device)": the tenant's feed, read as server-sent events and applied on the device.
@Suite struct SCAWalletFeedTests {
    @Test func serverSentEventsAreReadAsTheHTMLStandardSays() {
        let body = Data("""
        : a comment\r
        id: 1\r
        event: locked\r
        data: {"reason":\r
        data: "OTHER"}\r
        \r
        id: 2
        data:no space

        event: ignored

        id: 3
        event:unlocked
        data: {}

        """.utf8)
        let events = ServerSentEvents.parse(body)
        #expect(events == [
            ServerSentEvents.Event(id: "1", type: "locked", data: "{\"reason\":\n\"OTHER\"}"),
            ServerSentEvents.Event(id: "2", type: "message", data: "no space"),
            ServerSentEvents.Event(id: "3", type: "unlocked", data: "{}"),
        ])
    }

    @Test func eventsAreAppliedInOrderAndTheLastIdIsSentBack() async throws {
        let rig = try WalletRig()
        _ = try await rig.provision()
        await rig.tenant.append("locked", #"{"reason":"LOST_DEVICE"}"#)
        await rig.tenant.append("aNewerKindOfEvent", #"{"x":1}"#)
        await rig.tenant.append("productsUpdated")
        let first = try await rig.manager.synchronize()
        #expect(first == [.walletLoaded, .walletLocked(reason: "LOST_DEVICE"), .productsUpdated])
        var status = try await rig.manager.status()
        #expect(status.state == .locked && status.lockReason == "LOST_DEVICE")
        // The unknown event is skipped, its id counted as read.
        #expect(status.lastEventId == 4)
        #expect(await rig.tenant.lastRequest("events")?.header(HoldfastHeaders.lastEventID) == "0")

        await rig.tenant.append("unlocked")
        await rig.tenant.append("countersUpdated", #"{"pinAttemptsLeft":1}"#)
        let second = try await rig.manager.synchronize()
        #expect(await rig.tenant.lastRequest("events")?.header(HoldfastHeaders.lastEventID) == "4")
        #expect(second == [.walletUnlocked, .countersUpdated(pinAttemptsLeft: 1)])
        status = try await rig.manager.status()
        #expect(status.state == .ready && status.lockReason == nil && status.pinAttemptsLeft == 1 && status.lastEventId == 6)
        // Nothing new: nothing applied.
        #expect(try await rig.manager.synchronize() == [])
    }

    @Test func aCountNotLowerThanTheDevicesOwnIsNoNews() async throws {
        let rig = try WalletRig()
        _ = try await rig.provision()
        await rig.tenant.append("countersUpdated", #"{"pinAttemptsLeft":3}"#)
        #expect(try await rig.manager.synchronize() == [.walletLoaded])
        #expect(try await rig.manager.pinAttemptsLeft() == 3)
    }

    @Test func newSettingsAskForNewCredentialsAndCapTheAttempts() async throws {
        let rig = try WalletRig()
        _ = try await rig.provision()
        await rig.tenant.append("settingsUpdated", #"{"accessProtection":"none","maxPinAttempts":2}"#)
        #expect(try await rig.manager.synchronize() == [.walletLoaded, .settingsUpdated])
        let status = try await rig.manager.status()
        #expect(status.accessProtection == "none" && status.credentialsSet == true)
        #expect(status.maxPinAttempts == 2 && status.pinAttemptsLeft == 2)
    }

    @Test func aDeletedWalletIsForgottenWithItsKey() async throws {
        let rig = try WalletRig()
        _ = try await rig.provision()
        await rig.tenant.append("deleted")
        #expect(try await rig.manager.synchronize() == [.walletLoaded, .walletDeleted])
        #expect(try await rig.manager.state() == .notProvisioned)
        #expect(try await rig.secureArea.publicKey(alias: rig.keyAlias) == nil)
        #expect(await rig.storage.keys().allSatisfy { !$0.hasPrefix("holdfast.sca-wallet.v1.") })
    }

    @Test func aRefusedFeedIsTheTenantsError() async throws {
        let rig = try WalletRig()
        _ = try await rig.provision()
        await rig.tenant.inject(.problem(401, .invalidDPoPProof), on: "events")
        let error = await holdfastError { try await rig.manager.synchronize() }
        #expect(error?.code == .invalidDPoPProof && error?.httpStatus == 401)
        // Nothing was applied; the next read starts from the same place.
        #expect(try await rig.manager.status().lastEventId == 0)
    }

    @Test func synchronizingWithoutAWalletIsRefusedOffline() async throws {
        let rig = try WalletRig()
        let error = await holdfastError { try await rig.manager.synchronize() }
        #expect(error?.code == .walletNotProvisioned)
        #expect(await rig.tenant.count("events") == 0)
    }
}

/// README "SCA wallet": the PIN stretched with scrypt seals the wallet's signing capability.
@Suite struct WalletPINVaultTests {
    @Test(arguments: [("123456", true), ("12345678", true), ("12345", false), ("123456789", false), ("12345a", false),
                      ("１２３４５６", false), ("", false)])
    func aPINIsSixToEightASCIIDigits(_ pin: String, _ wellFormed: Bool) {
        #expect(WalletPINVault.isWellFormed(pin) == wellFormed)
    }

    @Test func onlyTheRightPINOfThisWalletOpensTheBox() throws {
        let vault = try WalletPINVault.seal(pin: "246810", walletId: "wallet-1")
        #expect(vault.salt.count == 16 && vault.rounds == 1 << 15 && vault.blockSize == 8 && vault.parallelism == 1)
        // The PIN itself is nowhere in what is kept.
        let kept = try JSONEncoder().encode(vault)
        #expect(!String(decoding: kept, as: UTF8.self).contains("246810"))
        #expect(try vault.opens(with: "246810", walletId: "wallet-1"))
        #expect(try !vault.opens(with: "246811", walletId: "wallet-1"))
        // The wallet id is the box's associated data: the same PIN does not open it for another wallet.
        #expect(try !vault.opens(with: "246810", walletId: "wallet-2"))
        // A malformed PIN is refused before any stretching.
        #expect(try !vault.opens(with: "24681", walletId: "wallet-1"))
    }

    @Test func aDamagedBoxIsReportedAsCorruptedStorage() throws {
        let vault = WalletPINVault(salt: Array(repeating: 1, count: 16), rounds: 2, blockSize: 1, parallelism: 1, sealed: [1, 2, 3])
        #expect(throws: HoldfastError.self) { try vault.opens(with: "123456", walletId: "wallet-1") }
        do {
            _ = try vault.opens(with: "123456", walletId: "wallet-1")
        } catch {
            #expect(error.code == .secureStorageCorrupted)
        }
    }
}

/// README "SCA wallet (device)": signing a proof, with the PIN's attempts counted here and reported to the tenant.
@Suite struct SCAWalletSigningTests {
    static let payload = SCAPayload(method: "POST", url: "https://bank.test/v1/transfers", body: .object(["amount": .string("10.00")]))

    @Test func aProofWithTheRightPINIsTheDocumentedJWSByTheWalletKey() async throws {
        let rig = try WalletRig()
        let wallet = try await rig.connected(pin: "135790")
        let signature = CustomerAuthenticatedSignature(patternName: .pin, message: "Send 10.00", signatureInputData: .object(["ref": .string("T-1")]),
                                                       payload: Self.payload)
        guard case .success(let proof) = await signature.sign(with: wallet, credentials: .pin("135790")) else {
            Issue.record("the right PIN did not sign")
            return
        }
        let jws = try JWS(compactSerialization: proof.jws)
        #expect(jws.header.typ == SCAProofClaims.type && jws.header.kid == rig.tenant.walletId && jws.algorithm == .es256)
        let key = try #require(await rig.tenant.walletKey)
        #expect((try? jws.verify(with: .p256(key.key), allowedAlgorithms: [.es256])) != nil)
        let members = try #require(try JSONValue(json: jws.payload).objectValue)
        #expect(Set(members.keys) == SCAProofClaims.memberNames)
        let claims = try #require(SCAProofClaims(members: members))
        #expect(claims == proof.claims)
        #expect(claims.method == "POST" && claims.url == "https://bank.test/v1/transfers" && claims.body == .object(["amount": .string("10.00")]))
        #expect(claims.message == "Send 10.00" && claims.pattern == .pin && claims.walletId == rig.tenant.walletId)
        #expect(claims.signatureInputData == .object(["ref": .string("T-1")]))
        #expect(claims.iat == Int64(rig.clock.now().timeIntervalSince1970) && !claims.jti.isEmpty)
        // All attempts were left: a right PIN has nothing to report.
        #expect(await rig.tenant.pinReports.isEmpty)
    }

    @Test func aWrongPINSpendsAnAttemptHereAndIsReported() async throws {
        let rig = try WalletRig()
        let wallet = try await rig.connected(pin: "135790")
        let signature = CustomerAuthenticatedSignature(patternName: .pin, message: "Send", payload: Self.payload)
        guard case .failure(let error) = await signature.sign(with: wallet, credentials: .pin("999999")) else {
            Issue.record("a wrong PIN signed")
            return
        }
        #expect(error.code == .wrongCredentials)
        #expect(try await rig.manager.pinAttemptsLeft() == 2)
        #expect(await rig.tenant.pinReports == [.failure])
        #expect(try await rig.manager.status().pendingPinReports == 0)
        // The right PIN gives the attempts back, and that is reported too.
        guard case .success = await signature.sign(with: wallet, credentials: .pin("135790")) else {
            Issue.record("the right PIN did not sign")
            return
        }
        #expect(try await rig.manager.pinAttemptsLeft() == 3)
        #expect(await rig.tenant.pinReports == [.failure, .success])
    }

    @Test func aReportTheTenantCannotTakeNowIsKeptForLater() async throws {
        let rig = try WalletRig()
        let wallet = try await rig.connected(pin: "135790")
        await rig.tenant.inject(.network, on: "pin-attempts")
        let signature = CustomerAuthenticatedSignature(patternName: .pin, message: "Send", payload: Self.payload)
        guard case .failure(let error) = await signature.sign(with: wallet, credentials: .pin("999999")) else {
            Issue.record("a wrong PIN signed")
            return
        }
        #expect(error.code == .wrongCredentials)
        #expect(try await rig.manager.status().pendingPinReports == 1)
        #expect(await rig.tenant.pinReports.isEmpty)
        // The next connection with the tenant delivers it.
        _ = try await rig.manager.synchronize()
        #expect(await rig.tenant.pinReports == [.failure])
        #expect(try await rig.manager.status().pendingPinReports == 0)
    }

    @Test func aReportTheTenantRefusesAsConflictIsDropped() async throws {
        let rig = try WalletRig()
        let wallet = try await rig.connected(pin: "135790")
        await rig.tenant.inject(.problem(409, .conflict), on: "pin-attempts")
        let signature = CustomerAuthenticatedSignature(patternName: .pin, message: "Send", payload: Self.payload)
        _ = await signature.sign(with: wallet, credentials: .pin("999999"))
        #expect(try await rig.manager.status().pendingPinReports == 0)
        #expect(await rig.tenant.count("pin-attempts") == 1)
    }

    @Test func aPatternTheWalletDoesNotHaveIsRefused() async throws {
        let rig = try WalletRig()
        let wallet = try await rig.connected()
        let signature = CustomerAuthenticatedSignature(patternName: .biometry, message: "Send", payload: Self.payload)
        guard case .failure(let error) = await signature.sign(with: wallet) else {
            Issue.record("biometry signed for a PIN wallet")
            return
        }
        #expect(error.code == .patternUnavailable)
        // The pin pattern without the PIN asks for it.
        guard case .failure(let missing) = await CustomerAuthenticatedSignature(patternName: .pin, message: "Send", payload: Self.payload)
            .sign(with: wallet) else {
            Issue.record("the pin pattern signed without a PIN")
            return
        }
        #expect(missing.code == .credentialsRequired)
        #expect(try await rig.manager.pinAttemptsLeft() == 3)
    }

    @Test func aHandleOfAnEndedConnectionSignsNothing() async throws {
        let rig = try WalletRig()
        let wallet = try await rig.connected()
        await rig.manager.disconnect()
        guard case .failure(let error) = await CustomerAuthenticatedSignature(patternName: .none, message: "Send", payload: Self.payload)
            .sign(with: wallet) else {
            Issue.record("a stale handle signed")
            return
        }
        #expect(error.code == .walletDisconnected)
    }

    @Test func aLockReadFromTheFeedEndsTheConnection() async throws {
        let rig = try WalletRig()
        let wallet = try await rig.connected()
        await rig.tenant.append("locked", #"{"reason":"FRAUD_SUSPICION"}"#)
        _ = try await rig.manager.synchronize()
        guard case .failure(let error) = await CustomerAuthenticatedSignature(patternName: .none, message: "Send", payload: Self.payload)
            .sign(with: wallet) else {
            Issue.record("a locked wallet signed")
            return
        }
        #expect(error.code == .walletDisconnected || error.code == .lockedWallet)
        guard case .connectionError(let refused) = await rig.manager.connect() else {
            Issue.record("a locked wallet connected")
            return
        }
        #expect(refused.code == .lockedWallet)
    }

    @Test func thePayloadFollowsTheTenantsPolicy() async throws {
        let rig = try WalletRig()
        await rig.tenant.setPolicies([SCAPolicy(method: "POST", pathTemplate: "/v1/transfers", signedFields: .fields(["amount"]),
                                                requiredPatterns: [.pin])])
        let payload = try await rig.manager.payload(method: "POST", url: "https://bank.test/v1/transfers",
                                                    body: .object(["amount": .string("5"), "note": .string("x")]))
        #expect(payload.body == .object(["amount": .string("5")]))
        // Fetched once, then cached.
        _ = try await rig.manager.policies()
        #expect(await rig.tenant.count("policies") == 1)
    }
}
