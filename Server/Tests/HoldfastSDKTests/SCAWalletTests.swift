import Crypto
import Foundation
import HoldfastProtocol
@testable import HoldfastSDK
import JOSE
import Synchronization
import Testing

/// One device with an SCA wallet manager, talking to a `FakeWalletTenant`.
struct WalletRig {
    let clock = ManualClock(Date(timeIntervalSince1970: 1_800_000_000))
    let storage = MemorySecureStorage()
    let tenant: FakeWalletTenant
    let secureArea: SoftwareSecureArea
    let userVerification: ScriptedUserVerification
    let integrity = SwitchableIntegrity()
    let manager: WalletManager

    init(userVerification: ScriptedUserVerification = ScriptedUserVerification(), protection: SCAAccessProtection = .pin) throws {
        tenant = FakeWalletTenant(clock: clock, accessProtection: protection)
        secureArea = SoftwareSecureArea(storage: storage)
        self.userVerification = userVerification
        let seams = PlatformSeams(secureStorage: storage, secureArea: secureArea, transport: tenant, clock: clock,
                                  sleeper: RecordingSleeper(), deviceInfo: DeviceInfo(deviceModel: "sim-1", deviceMake: "Holdfast", osVersion: "1.0"),
                                  jitter: { 1.0 }, userVerification: userVerification, deviceIntegrity: integrity)
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

/// Integrity signals a test turns on and off (the SDK re-checks them before each signature).
final class SwitchableIntegrity: DeviceIntegrity {
    private let found = Mutex<[String]>([])
    func set(_ signals: [String]) { found.withLock { $0 = signals } }
    func signals() async -> [String] { found.withLock { $0 } }
}

/// docs/sdk.md "SCA wallet (device)": provisioning with the one-time code.
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

/// docs/sdk.md "SCA wallet (device)": the tenant's feed, read as server-sent events and applied on the device.
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

/// docs/DESIGN.md "The SCA wallet's PIN": the PIN's secrets, and what a copy of the device's state gives.
@Suite struct WalletPINSecretTests {
    @Test(arguments: [("123456", true), ("12345678", true), ("12345", false), ("123456789", false), ("12345a", false),
                      ("１２３４５６", false), ("", false)])
    func aPINIsSixToEightASCIIDigits(_ pin: String, _ wellFormed: Bool) {
        #expect(WalletPINSecret.isWellFormed(pin) == wellFormed)
    }

    @Test func thePINsSecretsDependOnThePINAndTheSaltAndNeitherIsKept() throws {
        let derivation = WalletPINSecret.make()
        #expect(derivation.salt.count == 16 && derivation.rounds == 1 << 15 && derivation.blockSize == 8 && derivation.parallelism == 1)
        let right = try derivation.derive("246810")
        #expect(try derivation.derive("246810").secret == right.secret)
        #expect(try derivation.derive("246811").secret != right.secret)
        #expect(right.secret != right.sealing && right.secret.count == 32 && right.sealing.count == 32)
        #expect(try WalletPINSecret.make().derive("246810").secret != right.secret)
        let kept = String(decoding: try JSONEncoder().encode(derivation), as: UTF8.self)
        #expect(!kept.contains("246810"))
    }

    @Test func theUnlockKeyNeedsBothTheSealingPartAndTheTenantsShare() throws {
        let sealing = Array(repeating: UInt8(1), count: 32)
        let share = Array(repeating: UInt8(2), count: 32)
        let key = WalletPINSecret.unlockKey(sealing: sealing, share: share, walletId: "w-1")
        #expect(key != WalletPINSecret.unlockKey(sealing: sealing, share: Array(repeating: 3, count: 32), walletId: "w-1"))
        #expect(key != WalletPINSecret.unlockKey(sealing: Array(repeating: 3, count: 32), share: share, walletId: "w-1"))
        #expect(key != WalletPINSecret.unlockKey(sealing: sealing, share: share, walletId: "w-2"))
    }

    /// The property the design exists for: with a copy of everything the device stores, a right PIN and a wrong one
    /// lead to the same place offline. Nothing stored equals the PIN secret or the tenant's verifier of it, and the
    /// sealed PIN key opens for neither guess with any 32 bytes found in the state; only the tenant's share (which it
    /// releases after a right PIN, counting wrong ones) tells them apart.
    @Test func aCopyOfTheStoredStateCannotTellARightPINFromAWrongOne() async throws {
        let rig = try WalletRig()
        _ = try await rig.connected(pin: "135790")
        var copy: [UInt8] = []
        for key in await rig.storage.keys() { copy += try await rig.storage.read(key) ?? [] }
        let wallet = try #require(try await rig.manager.load())
        let pin = try #require(wallet.pin)
        let enrolment = try #require(await rig.tenant.enrolment)
        let share = try #require(enrolment.keyShare.flatMap(Base64URL.decode))

        func opens(_ guess: String, share candidate: [UInt8]) throws -> Bool {
            let sealing = try pin.derivation.derive(guess).sealing
            let unlock = WalletPINSecret.unlockKey(sealing: sealing, share: candidate, walletId: wallet.walletId)
            guard let box = try? AES.GCM.SealedBox(combined: pin.key.blob) else { return false }
            return (try? AES.GCM.open(box, using: unlock, authenticating: SoftwareUserVerifiedKeys.sealedContext)) != nil
        }
        for guess in ["135790", "999999"] {
            let secret = try pin.derivation.derive(guess).secret
            let verifier = Array(SHA256.hash(data: secret))
            #expect(!Self.contains(copy, secret) && !Self.contains(copy, verifier) && !Self.contains(copy, Array(Base64URL.encode(secret).utf8)))
        }
        #expect(!Self.contains(copy, share) && !Self.contains(copy, Array(Base64URL.encode(share).utf8)))
        // Every 32-byte window of the stored state (and of its base64url texts) as the share: no guess opens the key.
        var candidates = stride(from: 0, to: max(0, copy.count - 31), by: 1).map { Array(copy[$0 ..< $0 + 32]) }
        let text = String(decoding: copy, as: UTF8.self)
        candidates += text.split(whereSeparator: { !($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") })
            .compactMap { Base64URL.decode($0) }.filter { $0.count == 32 }
        // And every 32 bytes of the byte arrays the state decodes to (the salt, the sealed key, the biometry key).
        let arrays = pin.derivation.salt + pin.key.blob + (wallet.biometryKey?.blob ?? [])
        candidates += stride(from: 0, to: max(0, arrays.count - 31), by: 1).map { Array(arrays[$0 ..< $0 + 32]) }
        var rightOpened = 0
        var wrongOpened = 0
        let sealingRight = try pin.derivation.derive("135790").sealing
        let sealingWrong = try pin.derivation.derive("999999").sealing
        let box = try AES.GCM.SealedBox(combined: pin.key.blob)
        for candidate in candidates {
            for (sealing, counter) in [(sealingRight, 0), (sealingWrong, 1)] {
                let unlock = WalletPINSecret.unlockKey(sealing: sealing, share: candidate, walletId: wallet.walletId)
                if (try? AES.GCM.open(box, using: unlock, authenticating: SoftwareUserVerifiedKeys.sealedContext)) != nil {
                    if counter == 0 { rightOpened += 1 } else { wrongOpened += 1 }
                }
            }
        }
        #expect(candidates.count > 100)
        #expect(rightOpened == 0 && wrongOpened == 0)
        // With the share only the tenant holds, the same procedure does tell them apart: the test can see a difference.
        #expect(try opens("135790", share: share))
        #expect(try !opens("999999", share: share))
    }

    static func contains(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
        guard !needle.isEmpty, haystack.count >= needle.count else { return false }
        return (0 ... haystack.count - needle.count).contains { haystack[$0 ..< $0 + needle.count].elementsEqual(needle) }
    }
}

/// docs/sdk.md "SCA wallet (device)": signing a proof, the PIN checked and counted by the tenant.
@Suite struct SCAWalletSigningTests {
    static let payload = SCAPayload(method: "POST", url: "https://bank.test/v1/transfers", body: .object(["amount": .string("10.00")]))

    @Test func aProofWithTheRightPINIsTheDocumentedJWSByThePINKey() async throws {
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
        // Signed by the PIN key the tenant enrolled, not by the wallet key (which signs without the PIN).
        let pinKey = try InstancePublicKey(encoded: try #require(await rig.tenant.enrolment?.pinKey))
        #expect((try? jws.verify(with: .p256(pinKey.key), allowedAlgorithms: [.es256])) != nil)
        let walletKey = try #require(await rig.tenant.walletKey)
        #expect((try? jws.verify(with: .p256(walletKey.key), allowedAlgorithms: [.es256])) == nil)
        let members = try #require(try JSONValue(json: jws.payload).objectValue)
        #expect(Set(members.keys) == SCAProofClaims.memberNames)
        let claims = try #require(SCAProofClaims(members: members))
        #expect(claims == proof.claims)
        #expect(claims.method == "POST" && claims.url == "https://bank.test/v1/transfers" && claims.body == .object(["amount": .string("10.00")]))
        #expect(claims.message == "Send 10.00" && claims.pattern == .pin && claims.walletId == rig.tenant.walletId)
        #expect(claims.signatureInputData == .object(["ref": .string("T-1")]))
        #expect(claims.iat == Int64(rig.clock.now().timeIntervalSince1970) && !claims.jti.isEmpty && claims.counter == 1)
        // The tenant checked the PIN.
        #expect(await rig.tenant.pinReports == [.success])
    }

    @Test func everyProofCarriesACounterOneAboveTheLast() async throws {
        let rig = try WalletRig()
        let wallet = try await rig.connected(pin: "135790")
        var counters: [Int64] = []
        for pattern in [SCAPattern.none, .pin, .none] {
            let signature = CustomerAuthenticatedSignature(patternName: pattern, message: "Send", payload: Self.payload)
            guard case .success(let proof) = await signature.sign(with: wallet, credentials: pattern == .pin ? .pin("135790") : nil) else {
                Issue.record("did not sign")
                return
            }
            counters.append(proof.claims.counter)
        }
        #expect(counters == [1, 2, 3])
        #expect(try await rig.manager.status().proofCounter == 3)
    }

    @Test func aWrongPINIsCountedByTheTenant() async throws {
        let rig = try WalletRig()
        let wallet = try await rig.connected(pin: "135790")
        let events = rig.manager.events
        let signature = CustomerAuthenticatedSignature(patternName: .pin, message: "Send", payload: Self.payload)
        guard case .failure(let error) = await signature.sign(with: wallet, credentials: .pin("999999")) else {
            Issue.record("a wrong PIN signed")
            return
        }
        #expect(error.code == .wrongCredentials)
        #expect(try await rig.manager.pinAttemptsLeft() == 2)
        #expect(await rig.tenant.pinReports == [.failure])
        var iterator = events.makeAsyncIterator()
        #expect(await iterator.next() == .countersUpdated(pinAttemptsLeft: 2))
        // The right PIN gives the attempts back.
        guard case .success = await signature.sign(with: wallet, credentials: .pin("135790")) else {
            Issue.record("the right PIN did not sign")
            return
        }
        #expect(try await rig.manager.pinAttemptsLeft() == 3)
        #expect(await rig.tenant.pinReports == [.failure, .success])
    }

    @Test func theLastWrongPINLocksTheWalletAsTheTenantSays() async throws {
        let rig = try WalletRig()
        let wallet = try await rig.connected(pin: "135790")
        let signature = CustomerAuthenticatedSignature(patternName: .pin, message: "Send", payload: Self.payload)
        var codes: [HoldfastErrorCode] = []
        for _ in 0 ..< 3 {
            if case .failure(let error) = await signature.sign(with: wallet, credentials: .pin("999999")) { codes.append(error.code) }
        }
        #expect(codes == [.wrongCredentials, .wrongCredentials, .lockedWallet])
        let status = try await rig.manager.status()
        #expect(status.state == .locked && status.lockReason == .pinAttempts && status.pinAttemptsLeft == 0)
    }

    /// Offline no PIN can be checked: only the tenant can tell a wrong one, so nothing is counted and nothing signed.
    @Test func offlineAPINIsNeitherCheckedNorCounted() async throws {
        let rig = try WalletRig()
        let wallet = try await rig.connected(pin: "135790")
        await rig.tenant.inject(.network, on: "pin-attempts", times: 2)
        for pin in ["999999", "135790"] {
            guard case .failure(let error) = await CustomerAuthenticatedSignature(patternName: .pin, message: "Send", payload: Self.payload)
                .sign(with: wallet, credentials: .pin(pin)) else {
                Issue.record("signed offline with a PIN")
                return
            }
            #expect(error.code == .networkError)
        }
        #expect(try await rig.manager.pinAttemptsLeft() == 3)
        #expect(await rig.tenant.pinReports.isEmpty)
        // Possession alone still signs offline.
        guard case .success = await CustomerAuthenticatedSignature(patternName: .none, message: "Send", payload: Self.payload).sign(with: wallet) else {
            Issue.record("possession did not sign")
            return
        }
    }

    @Test func aPINForAWalletTheTenantNoLongerHasActiveReadsTheFeed() async throws {
        let rig = try WalletRig()
        let wallet = try await rig.connected(pin: "135790")
        await rig.tenant.append("locked", #"{"reason":"STOLEN_DEVICE"}"#)
        await rig.tenant.inject(.problem(409, .conflict), on: "pin-attempts")
        let signature = CustomerAuthenticatedSignature(patternName: .pin, message: "Send", payload: Self.payload)
        guard case .failure(let error) = await signature.sign(with: wallet, credentials: .pin("135790")) else {
            Issue.record("signed for a locked wallet")
            return
        }
        #expect(error.code == .conflict && error.httpStatus == 409)
        let status = try await rig.manager.status()
        #expect(status.state == .locked && status.lockReason == .stolenDevice)
    }

    /// docs/sdk.md "SCA wallet (device)": every input is checked before anything is sent; a malformed PIN, new or current,
    /// costs no attempt.
    @Test func aMalformedPINIsRefusedBeforeAnyPINIsSent() async throws {
        let rig = try WalletRig()
        _ = try await rig.connected(pin: "135790")
        let newMalformed = await holdfastError { try await rig.manager.changeCredentials(current: .pin("999999"), new: .pin("12")) }
        #expect(newMalformed?.code == .validationFailed)
        let currentMalformed = await holdfastError { try await rig.manager.changeCredentials(current: .pin("99"), new: .pin("246810")) }
        #expect(currentMalformed?.code == .validationFailed)
        #expect(try await rig.manager.pinAttemptsLeft() == 3)
        #expect(await holdfastError { try WalletCredentials.pin("12345").validate() }?.code == .validationFailed)
        #expect(await holdfastError { try WalletCredentials.pin("246810").validate() } == nil)
        #expect(await holdfastError { try WalletCredentials.biometry.validate() } == nil)
    }

    @Test func changingThePINSendsTheCurrentOneToTheTenant() async throws {
        let rig = try WalletRig()
        _ = try await rig.connected(pin: "135790")
        let wrong = await holdfastError { try await rig.manager.changeCredentials(current: .pin("999999"), new: .pin("246810")) }
        #expect(wrong?.code == .wrongCredentials)
        #expect(try await rig.manager.pinAttemptsLeft() == 2)
        try await rig.manager.changeCredentials(current: .pin("135790"), new: .pin("246810"))
        #expect(try await rig.manager.pinAttemptsLeft() == 3)
        try await rig.manager.checkCredentials(.pin("246810"))
        #expect(await holdfastError { try await rig.manager.checkCredentials(.pin("135790")) }?.code == .wrongCredentials)
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

/// docs/sdk.md "SCA wallet (device)": PIN or biometry, interchangeably, each with its own key.
@Suite struct SCAWalletPINOrBiometryTests {
    @Test func eitherFactorSignsAndThePatternSaysWhichKeyDid() async throws {
        let rig = try WalletRig(userVerification: ScriptedUserVerification(answers: [.verified, .verified]), protection: .pinOrBiometric)
        let wallet = try await rig.connected(pin: "135790")
        let enrolment = try #require(await rig.tenant.enrolment)
        let pinKey = try InstancePublicKey(encoded: try #require(enrolment.pinKey))
        let biometryKey = try InstancePublicKey(encoded: try #require(enrolment.biometryKey))
        #expect(pinKey != biometryKey)
        for (pattern, credentials, key, other) in [(SCAPattern.pin, WalletCredentials.pin("135790"), pinKey, biometryKey),
                                                   (.biometry, nil, biometryKey, pinKey)] {
            let signature = CustomerAuthenticatedSignature(patternName: pattern, message: "Send", payload: SCAWalletSigningTests.payload)
            guard case .success(let proof) = await signature.sign(with: wallet, credentials: credentials) else {
                Issue.record("\(pattern) did not sign")
                return
            }
            #expect(proof.claims.pattern == pattern)
            let jws = try JWS(compactSerialization: proof.jws)
            #expect((try? jws.verify(with: .p256(key.key), allowedAlgorithms: [.es256])) != nil)
            #expect((try? jws.verify(with: .p256(other.key), allowedAlgorithms: [.es256])) == nil)
        }
    }

    @Test func aBiometryTheUserFailsSignsNothing() async throws {
        let rig = try WalletRig(userVerification: ScriptedUserVerification(answers: [.refused(.failed("no match"))]), protection: .pinOrBiometric)
        let wallet = try await rig.connected(pin: "135790")
        guard case .failure(let error) = await CustomerAuthenticatedSignature(patternName: .biometry, message: "Send",
                                                                              payload: SCAWalletSigningTests.payload).sign(with: wallet) else {
            Issue.record("a failed biometry signed")
            return
        }
        #expect(error.code == .userVerificationFailed)
    }
}

/// docs/sdk.md "SCA wallet (device)": eligibility lost, a sunset passed and the integrity re-checked before each signature.
@Suite struct SCAWalletEligibilityTests {
    static func sign(_ wallet: Wallet) async -> SignatureResult {
        await CustomerAuthenticatedSignature(patternName: .none, message: "Send", payload: SCAWalletSigningTests.payload).sign(with: wallet)
    }

    @Test func afterEligibilityIsLostTheDeviceRefusesToSign() async throws {
        let rig = try WalletRig()
        let wallet = try await rig.connected()
        await rig.tenant.append("deviceEligibilityLost", #"{"reason":"DEVICE_MODEL_BLOCKED"}"#)
        _ = try await rig.manager.synchronize()
        #expect(try await rig.manager.status().ineligibility == .deviceModelBlocked)
        guard case .failure(let error) = await Self.sign(wallet) else {
            Issue.record("an ineligible device signed")
            return
        }
        #expect(error.code == .deviceNotEligible)
        // Found eligible again (the rules changed back), it signs again.
        _ = await rig.manager.provisioning.checkEligibility()
        guard case .success = await Self.sign(wallet) else {
            Issue.record("an eligible device did not sign")
            return
        }
    }

    @Test func pastTheSunsetTheDeviceRefusesToSign() async throws {
        let rig = try WalletRig()
        let wallet = try await rig.connected()
        let sunset = rig.clock.now().addingTimeInterval(3_600)
        await rig.tenant.append("appSunsetScheduled", #"{"minimumVersion":"3.0","sunsetAt":"\#(HoldfastJSON.formatDate(sunset))"}"#)
        _ = try await rig.manager.synchronize()
        guard case .success = await Self.sign(wallet) else {
            Issue.record("did not sign before the sunset")
            return
        }
        rig.clock.advance(by: 3_600)
        guard case .failure(let error) = await Self.sign(wallet) else {
            Issue.record("signed past the sunset")
            return
        }
        #expect(error.code == .appSunsetPassed && error.code.rawValue == "APP_SUNSET")
    }

    @Test func aNewerAppVersionIsNotSunset() async throws {
        let rig = try WalletRig()
        let wallet = try await rig.connected()
        // The rig's app is 2.4.1: a sunset of versions below 2.4 does not concern it.
        await rig.tenant.append("appSunsetScheduled", #"{"minimumVersion":"2.4","sunsetAt":"\#(HoldfastJSON.formatDate(rig.clock.now()))"}"#)
        _ = try await rig.manager.synchronize()
        guard case .success = await Self.sign(wallet) else {
            Issue.record("a supported version did not sign")
            return
        }
    }

    @Test func theIntegrityIsCheckedBeforeEachSignature() async throws {
        let rig = try WalletRig()
        let wallet = try await rig.connected()
        guard case .success = await Self.sign(wallet) else {
            Issue.record("did not sign")
            return
        }
        let events = rig.manager.events
        rig.integrity.set(["hooking"])
        guard case .failure(let error) = await Self.sign(wallet) else {
            Issue.record("a compromised device signed")
            return
        }
        #expect(error.code == .deviceNotEligible)
        var iterator = events.makeAsyncIterator()
        #expect(await iterator.next() == .deviceEligibilityLost(reason: .deviceIntegrity))
        #expect(try await rig.manager.status().ineligibility == .deviceIntegrity)
        // The signal gone, the device stays ineligible until a check finds it eligible again.
        rig.integrity.set([])
        guard case .connectionSuccess(let again) = await rig.manager.connect() else {
            Issue.record("did not connect")
            return
        }
        guard case .failure(let still) = await Self.sign(again) else {
            Issue.record("signed before a new eligibility check")
            return
        }
        #expect(still.code == .deviceNotEligible)
    }
}

/// docs/sdk.md "SCA wallet (device)": one callback per event on `WalletEventListener`, beside the `events` stream.
@Suite struct WalletEventListenerTests {
    final class Listener: WalletEventListener {
        let heard = Mutex<[String]>([])
        func onWalletEvent(_ event: WalletEvent) { heard.withLock { $0.append("any:\(event.name)") } }
        func onWalletLoaded() { heard.withLock { $0.append("walletLoaded") } }
        func onSettingsUpdated() { heard.withLock { $0.append("settingsUpdated") } }
        func onProductsUpdated() { heard.withLock { $0.append("productsUpdated") } }
        func onCountersUpdated(pinAttemptsLeft: Int) { heard.withLock { $0.append("countersUpdated(\(pinAttemptsLeft))") } }
        func onCustomerCredentialsReset() { heard.withLock { $0.append("customerCredentialsReset") } }
        func onWalletLocked(reason: SCALockReason) { heard.withLock { $0.append("walletLocked(\(reason))") } }
        func onWalletUnlocked() { heard.withLock { $0.append("walletUnlocked") } }
        func onDeviceEligibilityLost(reason: SCAIneligibilityReason) { heard.withLock { $0.append("deviceEligibilityLost(\(reason))") } }
        func onWalletDeleted() { heard.withLock { $0.append("walletDeleted") } }
        func onAppSunsetScheduled(minimumVersion: String, sunsetAt: Date) { heard.withLock { $0.append("appSunsetScheduled(\(minimumVersion))") } }
        func onLogout() { heard.withLock { $0.append("logout") } }
    }

    /// Only some callbacks: the others have defaults.
    final class Partial: WalletEventListener {
        let locks = Mutex<[SCALockReason]>([])
        func onWalletLocked(reason: SCALockReason) { locks.withLock { $0.append(reason) } }
    }

    @Test func eachEventReachesItsOwnCallbackAndTheCatchAll() async throws {
        let rig = try WalletRig()
        let listener = Listener()
        await rig.manager.setEventListener(listener)
        _ = try await rig.provision()
        guard case .credentialsRequired(.new) = await rig.manager.connect() else {
            Issue.record("expected credentialsRequired(.new)")
            return
        }
        await rig.tenant.append("settingsUpdated", #"{"maxPinAttempts":3}"#)
        await rig.tenant.append("productsUpdated")
        await rig.tenant.append("countersUpdated", #"{"pinAttemptsLeft":1}"#)
        await rig.tenant.append("locked", #"{"reason":"OTHER"}"#)
        await rig.tenant.append("unlocked")
        await rig.tenant.append("credentialsReset")
        await rig.tenant.append("deviceEligibilityLost", #"{"reason":"APP_VERSION_UNSUPPORTED"}"#)
        await rig.tenant.append("appSunsetScheduled", #"{"minimumVersion":"3.0","sunsetAt":"2030-01-01T00:00:00Z"}"#)
        _ = try await rig.manager.synchronize()
        try await rig.manager.logout()
        await rig.tenant.append("deleted")
        _ = try await rig.manager.synchronize()
        let specific = listener.heard.withLock { $0 }.filter { !$0.hasPrefix("any:") }
        // The connect outcome is the catch-all's only: its own callback is `WalletManagerDelegate.onCredentialsRequired`.
        #expect(specific == ["walletLoaded", "settingsUpdated", "productsUpdated", "countersUpdated(1)",
                             "walletLocked(OTHER)", "walletUnlocked", "customerCredentialsReset", "deviceEligibilityLost(APP_VERSION_UNSUPPORTED)",
                             "appSunsetScheduled(3.0)", "logout", "walletDeleted"])
        let any = listener.heard.withLock { $0 }.filter { $0.hasPrefix("any:") }.map { String($0.dropFirst(4)) }
        #expect(any == ["walletLoaded", "credentialsRequired", "settingsUpdated", "productsUpdated", "countersUpdated", "walletLocked",
                        "walletUnlocked", "customerCredentialsReset", "deviceEligibilityLost", "appSunsetScheduled", "logout", "walletDeleted"])
    }

    @Test func aListenerImplementsOnlyWhatItNeeds() async throws {
        let rig = try WalletRig()
        let listener = Partial()
        await rig.manager.setEventListener(listener)
        _ = try await rig.provision()
        await rig.tenant.append("locked", #"{"reason":"LOST_DEVICE"}"#)
        _ = try await rig.manager.synchronize()
        #expect(listener.locks.withLock { $0 } == [.lostDevice])
    }
}

/// docs/sdk.md "SCA wallet (device)": `disconnect()` and `clean()`.
@Suite struct WalletConnectionEndTests {
    @Test func disconnectEndsTheHandleAndKeepsTheWallet() async throws {
        let rig = try WalletRig()
        let wallet = try await rig.connected()
        await rig.manager.disconnect()
        guard case .failure(let error) = await CustomerAuthenticatedSignature(patternName: .none, message: "Send", payload: SCAWalletSigningTests.payload)
            .sign(with: wallet) else {
            Issue.record("a disconnected handle signed")
            return
        }
        #expect(error.code == .walletDisconnected)
        // Nothing stored changed: the wallet is ready, and connecting again needs no credentials.
        let walletId = try await rig.manager.walletId()
        #expect(try await rig.manager.state() == .ready)
        #expect(walletId == rig.tenant.walletId)
        guard case .connectionSuccess(let again) = await rig.manager.connect() else {
            Issue.record("did not connect again")
            return
        }
        #expect(again != wallet)
        guard case .success = await CustomerAuthenticatedSignature(patternName: .none, message: "Send", payload: SCAWalletSigningTests.payload)
            .sign(with: again) else {
            Issue.record("the new handle did not sign")
            return
        }
    }

    @Test func cleanDropsWhatIsHeldInMemoryAndStopsTheFeed() async throws {
        let rig = try WalletRig()
        let wallet = try await rig.connected()
        _ = try await rig.manager.policies()
        #expect(await rig.tenant.count("policies") == 1)
        await rig.manager.startEventFeed(every: 3_600)
        await rig.manager.clean()
        guard case .failure(let error) = await CustomerAuthenticatedSignature(patternName: .none, message: "Send", payload: SCAWalletSigningTests.payload)
            .sign(with: wallet) else {
            Issue.record("a handle signed after clean()")
            return
        }
        #expect(error.code == .walletDisconnected)
        // The cached policies are gone: they are fetched again.
        _ = try await rig.manager.policies()
        #expect(await rig.tenant.count("policies") == 2)
        // The feed task is gone, and the stored wallet is read again from the store, unchanged.
        #expect(await rig.manager.feedTask == nil)
        let status = try await rig.manager.status()
        #expect(status.state == .ready && status.credentialsSet == true && status.walletId == rig.tenant.walletId)
    }
}
