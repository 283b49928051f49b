import Foundation
import HoldfastAdmin
import HoldfastProtocol
import HoldfastSDK
import JOSE
import ServerTestSupport
import Testing

/// The SCA wallet end to end (docs/server-api.md "SCA wallet (back end)"): the SDK's `WalletManager` with the Linux seams against an
/// in-process tenant over HTTP — every connect outcome, state, event, the PIN's lifecycle, and the bank's back end
/// verifying the proofs.
@Suite struct SCAWalletEndToEndTests {
    static let pin = "493817"
    static let otherPin = "720546"
    static let policies = #"""
    [{"method":"POST","pathTemplate":"/v1/beneficiaries","signedFields":"all","requiredPatterns":["pin","biometry"]},
     {"method":"PUT","pathTemplate":"/v1/cards/{cardId}/limits","signedFields":["paymentDailyLimit"],"requiredPatterns":[]}]
    """#
    static let beneficiaryURL = "https://api.bank.example/v1/beneficiaries"
    static let beneficiary: JSONValue = .object(["name": .string("Alex Martin"), "iban": .string("FR7630001007941234567890185"),
                                                 "accessTag": .string("t-1")])

    /// One device with its wallet manager, what it sent, and what it heard.
    struct Device {
        let manager: WalletManager
        let recorder: RecordingTransport
        let network: SwitchableTransport
        let storage: FileSecureStorage
        let directory: URL
        let heard: EventRecorder
    }

    static func device(_ tenant: EndToEndTenant, applicationId: String, appVersion: String = "2.4.0", model: String = "iPhone16,1",
                       integrity: [String] = [], userVerification: any UserVerification = ScriptedUserVerification(),
                       directory: URL? = nil, clock: any HoldfastClock = SystemClock(), tenantHost: String? = nil,
                       storage given: FileSecureStorage? = nil) async throws -> Device {
        let directory = directory ?? tenant.scratch.appendingPathComponent(UUID().uuidString)
        // A given storage: the wallet of an app that also holds credentials, on the app's one store.
        let storage = given ?? FileSecureStorage(directory: directory, applicationId: "holdfast-sdk")
        let recorder = RecordingTransport(URLSessionTransport(timeout: 10))
        let network = SwitchableTransport(recorder)
        let seams = PlatformSeams(secureStorage: storage, secureArea: SoftwareSecureArea(storage: storage), transport: network, clock: clock,
                                  deviceInfo: DeviceInfo(deviceModel: model, deviceMake: "Apple", osVersion: "18.1"),
                                  userVerification: userVerification, deviceIntegrity: ScriptedDeviceIntegrity(signals: integrity))
        let platform = PlatformConfiguration(tenantHost: tenantHost ?? tenant.baseURL, applicationId: applicationId, retryPolicy: SimulatedDevice.testRetryPolicy)
        let manager = try WalletManager(seams: seams, configuration: WalletConfiguration(platform: platform, appVersion: appVersion))
        let heard = EventRecorder()
        await heard.listen(to: manager)
        return Device(manager: manager, recorder: recorder, network: network, storage: storage, directory: directory, heard: heard)
    }

    static func createWallet(_ tenant: EndToEndTenant, applicationId: String, protection: SCAAccessProtection = .pin) async throws -> SCAWalletCreated {
        try await tenant.admin.createSCAWallet(SCAWalletCreateRequest(applicationId: applicationId, userId: "customer-42",
                                                                      settings: SCAWalletSettings(accessProtection: protection)))
    }

    /// A raw admin call, for the answers a typed call would never provoke (a refused body).
    static func admin(_ tenant: EndToEndTenant, _ method: String, _ route: RouteTemplate, _ parameters: [String: String] = [:],
                      _ body: String? = nil) async throws -> AdminClient.Answer {
        try await tenant.admin.send(method, route, parameters, body: body.map { Data($0.utf8) })
    }

    /// `policies`, as the tenant's signing policies.
    static func putPolicies(_ tenant: EndToEndTenant) async throws {
        _ = try await tenant.admin.replaceSCAPolicies(try HoldfastJSON.decode([SCAPolicy].self, from: Data(policies.utf8)))
    }

    static func verify(_ tenant: EndToEndTenant, proof: String, method: String = "POST", url: String = beneficiaryURL,
                       body: JSONValue? = beneficiary) async throws -> SCAProofVerification {
        try await tenant.admin.verifySCAProof(SCAProofVerifyRequest(proof: proof, method: method, url: url, body: body))
    }

    /// A provisioned wallet with its PIN set, connected.
    static func connectedWallet(_ tenant: EndToEndTenant, _ device: Device, applicationId: String) async throws -> Wallet {
        try await putPolicies(tenant)
        let created = try await createWallet(tenant, applicationId: applicationId)
        guard case .provisioningSuccess = await device.manager.provisioning.provision(activationCode: created.activationCode) else {
            throw Failure("provisioning failed")
        }
        let connected = await device.manager.connect(newCredentials: .pin(pin))
        guard case .connectionSuccess(let wallet) = connected else { throw Failure("connect failed: \(connected)") }
        return wallet
    }

    /// A new device of a new application, with its wallet provisioned, its PIN set and connected.
    static func connectedDevice(_ tenant: EndToEndTenant) async throws -> (applicationId: String, device: Device, wallet: Wallet) {
        let applicationId = try #require(try await tenant.createIOSApplication().id)
        let device = try await Self.device(tenant, applicationId: applicationId)
        return (applicationId, device, try await connectedWallet(tenant, device, applicationId: applicationId))
    }

    /// A copy of the device's stored state as it is now (a backup restored later, a clone, a thief's copy).
    static func copyOfState(_ device: Device, in tenant: EndToEndTenant) throws -> URL {
        let copy = tenant.scratch.appendingPathComponent(UUID().uuidString)
        try FileManager.default.copyItem(at: device.directory, to: copy)
        return copy
    }

    static func beneficiarySignature(_ manager: WalletManager, pattern: SCAPattern = .pin) async throws -> CustomerAuthenticatedSignature {
        CustomerAuthenticatedSignature(patternName: pattern, message: "Add Alex Martin as a beneficiary", signatureType: .localJws,
                                       signatureInputData: .object(["reference": .string("op-1")]),
                                       payload: try await manager.payload(method: "POST", url: beneficiaryURL, body: beneficiary))
    }

    struct Failure: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }

    @Test(arguments: EndToEndBackend.available)
    func provisionSetThePinSignAndTheBankVerifies(_ backend: EndToEndBackend) async throws {
        try await backend.withTenant { tenant in
            let applicationId = try #require(try await tenant.createIOSApplication().id)
            try await Self.putPolicies(tenant)
            let device = try await Self.device(tenant, applicationId: applicationId)
            let manager = device.manager
            #expect(try await manager.state() == .notProvisioned)
            guard case .deviceEligible(let features) = await manager.provisioning.checkEligibility() else { throw Failure("not eligible") }
            #expect(features.contains(.pin) && !features.contains(.platformAttestation))
            guard case .provisioningRequired = await manager.connect() else { throw Failure("expected provisioningRequired") }

            let created = try await Self.createWallet(tenant, applicationId: applicationId)
            guard case .provisioningSuccess(let walletId) = await manager.provisioning.provision(activationCode: created.activationCode) else {
                throw Failure("provisioning failed")
            }
            #expect(walletId == created.walletId)
            #expect(try await manager.state() == .ready)
            guard case .provisioningError(let again) = await manager.provisioning.provision(activationCode: created.activationCode) else {
                throw Failure("a second provisioning succeeded")
            }
            #expect(again.code == .walletAlreadyProvisioned)
            // Right after provisioning: new credentials; a PIN of the wrong form is refused and nothing is set.
            guard case .credentialsRequired(.new) = await manager.connect() else { throw Failure("expected credentialsRequired(.new)") }
            guard case .connectionError(let short) = await manager.connect(newCredentials: .pin("1234")) else { throw Failure("short PIN") }
            #expect(short.code == .validationFailed)
            guard case .connectionSuccess(let wallet) = await manager.connect(newCredentials: .pin(Self.pin)) else { throw Failure("connect") }
            #expect(wallet.id == walletId && wallet.userId == "customer-42")
            #expect(await device.heard.waitFor { $0.contains(.walletLoaded) })

            let signature = try await Self.beneficiarySignature(manager)
            let signed = await wallet.sign(signature, credentials: .pin(Self.pin))
            let jws = try #require(signed.result(), "\(signed)")
            let parsed = try JWS(compactSerialization: jws)
            #expect(parsed.header.typ == "sca-proof+jwt" && parsed.header.kid == walletId && parsed.algorithm == .es256)
            let members = try #require(try JSONValue(json: parsed.payload).objectValue)
            #expect(Set(members.keys) == ["method", "url", "body", "message", "pattern", "signatureInputData", "walletId", "iat", "jti", "counter"])
            #expect(members["counter"] == .integer(1))
            #expect(members["method"] == .string("POST"))
            #expect(members["body"]?.objectValue?["accessTag"] == nil && members["pattern"] == .string("pin"))
            let verdict = try await Self.verify(tenant, proof: jws)
            #expect(verdict.valid && verdict.walletId == walletId && verdict.userId == "customer-42" && verdict.pattern == .pin, "\(verdict)")
            #expect(try await Self.verify(tenant, proof: jws).code == SCAProofFailureCode.replayed)
            // A pattern weaker than the policy: signed with possession alone, refused for beneficiaries.
            let weak = try #require(await wallet.sign(try await Self.beneficiarySignature(manager, pattern: .none)).result())
            #expect(try await Self.verify(tenant, proof: weak).code == SCAProofFailureCode.patternInsufficient)
            let biometric = await wallet.sign(try await Self.beneficiarySignature(manager, pattern: .biometry))
            #expect(biometric.failureCode == .patternUnavailable)
            #expect(await wallet.sign(signature).failureCode == .credentialsRequired)

            // The PIN is nowhere: not in what the device sent, not in its store (decrypted), not in its files.
            #expect(!device.recorder.everything.contains(Self.pin))
            let stored = try #require(try await device.storage.read("holdfast.sca-wallet.v1.\(applicationId)"))
            #expect(!String(decoding: stored, as: UTF8.self).contains(Self.pin) && String(decoding: stored, as: UTF8.self).contains("derivation"))
            for file in try FileManager.default.contentsOfDirectory(at: device.directory, includingPropertiesForKeys: nil) {
                #expect(!String(decoding: try Data(contentsOf: file), as: UTF8.self).contains(Self.pin))
            }
            // State is read offline; possession signs offline, a PIN cannot be checked offline (only the tenant can tell).
            device.network.isOnline = false
            #expect(try await manager.state() == .ready)
            #expect(try #require(await wallet.sign(try await Self.beneficiarySignature(manager, pattern: .none)).result()).split(separator: ".").count == 3)
            #expect(await wallet.sign(signature, credentials: .pin(Self.pin)).failureCode == .networkError)
        }
    }

    @Test func wrongPinsLockTheWalletUntilTheBackEndUnlocksIt() async throws {
        try await EndToEndBackend.sqlite.withTenant { tenant in
            let (_, device, wallet) = try await Self.connectedDevice(tenant)
            let signature = try await Self.beneficiarySignature(device.manager)
            #expect(await wallet.sign(signature, credentials: .pin(Self.otherPin)).failureCode == .wrongCredentials)
            #expect(try await device.manager.pinAttemptsLeft() == 2)
            // A right PIN gives the attempts back.
            #expect(await wallet.sign(signature, credentials: .pin(Self.pin)).result() != nil)
            #expect(try await device.manager.pinAttemptsLeft() == 3)
            for expected in [HoldfastErrorCode.wrongCredentials, .wrongCredentials, .lockedWallet] {
                #expect(await wallet.sign(signature, credentials: .pin(Self.otherPin)).failureCode == expected)
            }
            #expect(try await device.manager.state() == .locked)
            // Locked: even the right PIN is not tried, and no attempt is taken.
            let reconnect = await device.manager.connect()
            guard case .connectionError(let locked) = reconnect else { throw Failure("\(reconnect)") }
            #expect(locked.code == .lockedWallet)
            try await device.manager.synchronize()
            let server = try await tenant.admin.scaWallet(id: wallet.id)
            #expect(server.state == "locked" && server.lockReason == "PIN_ATTEMPTS" && server.pinAttemptsLeft == 0)
            #expect(await device.heard.waitFor { $0.contains(.countersUpdated(pinAttemptsLeft: 0)) })
            let heard = await device.heard.events
            #expect(heard.filter { $0 == .walletLocked(reason: "PIN_ATTEMPTS") }.count == 1, "\(heard)")
            #expect(heard.contains(.countersUpdated(pinAttemptsLeft: 0)))

            _ = try await tenant.admin.unlockSCAWallet(id: wallet.id)
            let events = try await device.manager.synchronize()
            #expect(events == [.walletUnlocked])
            #expect(try await device.manager.state() == .ready)
            #expect(try await device.manager.pinAttemptsLeft() == 3)
            guard case .connectionSuccess(let again) = await device.manager.connect() else { throw Failure("connect after unlock") }
            #expect(await wallet.sign(signature, credentials: .pin(Self.pin)).failureCode == .walletDisconnected)
            let proof = try #require(await again.sign(signature, credentials: .pin(Self.pin)).result())
            #expect(try await Self.verify(tenant, proof: proof).valid)
        }
    }

    /// PIN checks made at the same time are counted one by one: four wrong PINs at once spend the three attempts and
    /// no more, and lock the wallet once.
    @Test func concurrentWrongPinsAreEachCounted() async throws {
        try await EndToEndBackend.sqlite.withTenant { tenant in
            let (_, device, wallet) = try await Self.connectedDevice(tenant)
            let signature = try await Self.beneficiarySignature(device.manager)
            let codes = await withTaskGroup(of: HoldfastErrorCode?.self) { group in
                for _ in 0..<4 { group.addTask { await wallet.sign(signature, credentials: .pin(Self.otherPin)).failureCode } }
                var codes: [String] = []
                for await code in group { codes.append(code?.rawValue ?? "signed") }
                return codes.sorted()
            }
            #expect(codes == ["WALLET_LOCKED", "WALLET_LOCKED", "WRONG_CREDENTIALS", "WRONG_CREDENTIALS"], "\(codes)")
            #expect(try await device.manager.status().pinAttemptsLeft == 0)
            try await device.manager.synchronize()
            let server = try await tenant.admin.scaWallet(id: wallet.id)
            #expect(server.state == "locked" && server.pinAttemptsLeft == 0)
            #expect(await device.heard.waitFor { $0.contains(.walletLocked(reason: "PIN_ATTEMPTS")) })
            #expect(await device.heard.events.filter { $0 == .walletLocked(reason: "PIN_ATTEMPTS") }.count == 1)
        }
    }

    /// Brute force by restoring the device's state from a copy made before the wrong PINs: the tenant's count is the
    /// truth, and the feed brings it back at the next connection.
    @Test func aRestoredDeviceStateDoesNotGetItsAttemptsBack() async throws {
        try await EndToEndBackend.sqlite.withTenant { tenant in
            let (applicationId, device, wallet) = try await Self.connectedDevice(tenant)
            let copy = try Self.copyOfState(device, in: tenant)
            let signature = try await Self.beneficiarySignature(device.manager)
            for _ in 0..<2 { #expect(await wallet.sign(signature, credentials: .pin(Self.otherPin)).failureCode == .wrongCredentials) }

            let restored = try await Self.device(tenant, applicationId: applicationId, directory: copy)
            #expect(try await restored.manager.pinAttemptsLeft() == 3)
            guard case .connectionSuccess(let again) = await restored.manager.connect() else { throw Failure("connect") }
            #expect(try await restored.manager.pinAttemptsLeft() == 1)
            #expect(await restored.heard.waitFor { $0.contains(.countersUpdated(pinAttemptsLeft: 1)) })
            #expect(await again.sign(signature, credentials: .pin(Self.otherPin)).failureCode == .lockedWallet)
        }
    }

    /// Only the tenant can tell a right PIN from a wrong one (docs/DESIGN.md "The SCA wallet's PIN"): offline, no PIN is
    /// checked and none is counted; back online, the tenant counts.
    @Test func offlineNoPinIsCheckedAndNoneIsCounted() async throws {
        try await EndToEndBackend.sqlite.withTenant { tenant in
            let (_, device, wallet) = try await Self.connectedDevice(tenant)
            let signature = try await Self.beneficiarySignature(device.manager)
            device.network.isOnline = false
            for pin in [Self.otherPin, Self.pin] {
                #expect(await wallet.sign(signature, credentials: .pin(pin)).failureCode == .networkError)
            }
            #expect(try await device.manager.pinAttemptsLeft() == 3)
            device.network.isOnline = true
            #expect(await wallet.sign(signature, credentials: .pin(Self.otherPin)).failureCode == .wrongCredentials)
            #expect(try await device.manager.pinAttemptsLeft() == 2)
            #expect(try await tenant.admin.scaWallet(id: wallet.id).pinAttemptsLeft == 2)
        }
    }

    /// A copy of the device's state, taken offline, answers a right PIN and a wrong one alike: nothing in it can check
    /// a guess (the PIN key is sealed under the tenant's share), so guessing needs the tenant, which counts.
    @Test func aCopyOfTheDeviceStateCannotTellARightPinFromAWrongOne() async throws {
        try await EndToEndBackend.sqlite.withTenant { tenant in
            let (applicationId, device, wallet) = try await Self.connectedDevice(tenant)
            let copy = try Self.copyOfState(device, in: tenant)
            let stolen = try await Self.device(tenant, applicationId: applicationId, directory: copy)
            stolen.network.isOnline = false
            guard case .connectionSuccess(let handle) = await stolen.manager.connect() else { throw Failure("offline connect") }
            let signature = try await Self.beneficiarySignature(device.manager)
            var answers: [String] = []
            for pin in [Self.pin, Self.otherPin] {
                let result = await handle.sign(signature, credentials: .pin(pin))
                answers.append("\(result.failureCode?.rawValue ?? "signed") \(try await stolen.manager.status().pinAttemptsLeft ?? -1)")
                _ = try? await stolen.manager.checkCredentials(.pin(pin))
            }
            #expect(answers == ["NETWORK_ERROR 3", "NETWORK_ERROR 3"])
            // Online, the copy's guesses go to the tenant and are counted against the wallet, for the device too.
            stolen.network.isOnline = true
            #expect(await handle.sign(signature, credentials: .pin(Self.otherPin)).failureCode == .wrongCredentials)
            #expect(try await tenant.admin.scaWallet(id: wallet.id).pinAttemptsLeft == 2)
        }
    }

    /// A clone signs with the same wallet: its proof counter is behind the device's, and the tenant locks the wallet
    /// for it (`FRAUD_SUSPICION`), which the device hears.
    @Test func aClonesProofLocksTheWalletForFraudSuspicion() async throws {
        try await EndToEndBackend.sqlite.withTenant { tenant in
            let (applicationId, device, wallet) = try await Self.connectedDevice(tenant)
            let copy = try Self.copyOfState(device, in: tenant)
            let signature = try await Self.beneficiarySignature(device.manager)
            for _ in 0..<2 {
                let proof = try #require(await wallet.sign(signature, credentials: .pin(Self.pin)).result())
                #expect(try await Self.verify(tenant, proof: proof).valid)
            }
            let clone = try await Self.device(tenant, applicationId: applicationId, directory: copy)
            guard case .connectionSuccess(let cloned) = await clone.manager.connect() else { throw Failure("clone connect") }
            let proof = try #require(await cloned.sign(signature, credentials: .pin(Self.pin)).result())
            let verdict = try await Self.verify(tenant, proof: proof)
            #expect(!verdict.valid && verdict.code == SCAProofFailureCode.fraudSuspicion, "\(verdict)")
            let server = try await tenant.admin.scaWallet(id: wallet.id)
            #expect(server.state == "locked" && server.lockReason == "FRAUD_SUSPICION")
            #expect(try await device.manager.synchronize() == [.walletLocked(reason: "FRAUD_SUSPICION")])
            #expect(await wallet.sign(signature, credentials: .pin(Self.pin)).failureCode == .walletDisconnected)
        }
    }

    /// Eligibility lost and a sunset passed take effect on both sides: the device refuses to sign, and the tenant
    /// refuses an otherwise honest proof signed before.
    @Test func eligibilityLostAndSunsetStopTheDeviceAndTheTenant() async throws {
        try await EndToEndBackend.sqlite.withTenant { tenant in
            let applicationId = try #require(try await tenant.createIOSApplication().id)
            let clock = ManualClock(Date())
            let device = try await Self.device(tenant, applicationId: applicationId, clock: clock)
            let wallet = try await Self.connectedWallet(tenant, device, applicationId: applicationId)
            let signature = try await Self.beneficiarySignature(device.manager)
            let signedBefore = try #require(await wallet.sign(signature, credentials: .pin(Self.pin)).result())

            // A sunset announced for this version: signing works until the date, then stops with APP_SUNSET.
            let sunset = Date().addingTimeInterval(86_400)
            _ = try await tenant.admin.replaceSCAEligibilityRules(SCAEligibilityRules(minimumAppVersions: [
                SCAMinimumAppVersion(applicationId: applicationId, version: "2.5", sunsetAt: sunset)]))
            #expect(try await device.manager.synchronize().count == 1)
            let beforeSunset = try #require(await wallet.sign(signature, credentials: .pin(Self.pin)).result())
            clock.advance(by: 2 * 86_400)
            #expect(await wallet.sign(signature, credentials: .pin(Self.pin)).failureCode == .appSunsetPassed)
            // The tenant, past the sunset too (a rule whose date has passed), refuses the honest proof with the same code.
            _ = try await tenant.admin.replaceSCAEligibilityRules(SCAEligibilityRules(minimumAppVersions: [
                SCAMinimumAppVersion(applicationId: applicationId, version: "2.5", sunsetAt: Date().addingTimeInterval(-1))]))
            #expect(try await Self.verify(tenant, proof: beforeSunset).code == SCAProofFailureCode.appVersionSunset)

            // The tenant's rule past its date makes the wallet's version unsupported: the device hears it lost its
            // eligibility.
            clock.set(Date())
            #expect(try await device.manager.synchronize() == [.deviceEligibilityLost(reason: "APP_VERSION_UNSUPPORTED")])
            #expect(await wallet.sign(signature, credentials: .pin(Self.pin)).failureCode == .deviceNotEligible)

            // The rules relaxed, an eligibility check makes the device sign again; then its model blocked: the device
            // refuses, and so does the tenant.
            _ = try await tenant.admin.replaceSCAEligibilityRules(SCAEligibilityRules())
            guard case .deviceEligible = await device.manager.provisioning.checkEligibility() else { throw Failure("not eligible") }
            #expect(await wallet.sign(signature, credentials: .pin(Self.pin)).result() != nil)
            _ = try await tenant.admin.replaceSCAEligibilityRules(SCAEligibilityRules(blockedDeviceModels: ["iPhone16,1"]))
            #expect(try await device.manager.synchronize() == [.deviceEligibilityLost(reason: "DEVICE_MODEL_BLOCKED")])
            #expect(await wallet.sign(signature, credentials: .pin(Self.pin)).failureCode == .deviceNotEligible)
            #expect(try await Self.verify(tenant, proof: signedBefore).code == SCAProofFailureCode.deviceIneligible)
        }
    }

    @Test func logoutAsksForTheCurrentPinAndChangeAndResetReplaceIt() async throws {
        try await EndToEndBackend.sqlite.withTenant { tenant in
            let applicationId = try #require(try await tenant.createIOSApplication().id)
            let device = try await Self.device(tenant, applicationId: applicationId)
            let manager = device.manager
            let wallet = try await Self.connectedWallet(tenant, device, applicationId: applicationId)
            try await manager.logout()
            #expect(try await manager.state() == .logout)
            #expect(await device.heard.waitFor { $0.contains(.logout) })
            #expect(await wallet.sign(try await Self.beneficiarySignature(manager), credentials: .pin(Self.pin)).failureCode == .walletDisconnected)
            guard case .credentialsRequired(.current) = await manager.connect() else { throw Failure("expected credentialsRequired(.current)") }
            guard case .connectionError(let wrong) = await manager.connect(currentCredentials: .pin(Self.otherPin)) else { throw Failure("wrong PIN") }
            #expect(wrong.code == .wrongCredentials)
            guard case .connectionSuccess = await manager.connect(currentCredentials: .pin(Self.pin)) else { throw Failure("right PIN") }

            // Change: the old PIN stops working, the new one works.
            try await manager.changeCredentials(current: .pin(Self.pin), new: .pin(Self.otherPin))
            await expectHoldfastError(.wrongCredentials) { try await manager.checkCredentials(.pin(Self.pin)) }
            try await manager.checkCredentials(.pin(Self.otherPin))

            // Reset by the back end: the connection ends, the next connect asks for new credentials.
            guard case .connectionSuccess(let connected) = await manager.connect() else { throw Failure("connect") }
            _ = try await tenant.admin.resetSCAWalletCredentials(id: wallet.id)
            #expect(try await manager.synchronize() == [.customerCredentialsReset])
            #expect(await connected.sign(try await Self.beneficiarySignature(manager), credentials: .pin(Self.otherPin)).failureCode
                    == .walletDisconnected)
            guard case .credentialsRequired(.new) = await manager.connect() else { throw Failure("expected credentialsRequired(.new)") }
            guard case .connectionSuccess(let renewed) = await manager.connect(newCredentials: .pin("55501234")) else { throw Failure("new PIN") }
            let proof = try #require(await renewed.sign(try await Self.beneficiarySignature(manager), credentials: .pin("55501234")).result())
            #expect(try await Self.verify(tenant, proof: proof).valid)
        }
    }

    @Test func theBackEndLocksAndDeletesAConnectedWallet() async throws {
        try await EndToEndBackend.sqlite.withTenant { tenant in
            let applicationId = try #require(try await tenant.createIOSApplication().id)
            let device = try await Self.device(tenant, applicationId: applicationId)
            let manager = device.manager
            let wallet = try await Self.connectedWallet(tenant, device, applicationId: applicationId)
            _ = try await tenant.admin.lockSCAWallet(id: wallet.id, reason: "STOLEN_DEVICE")
            #expect(try await manager.synchronize() == [.walletLocked(reason: "STOLEN_DEVICE")])
            #expect(try await manager.state() == .locked)
            #expect(await wallet.sign(try await Self.beneficiarySignature(manager), credentials: .pin(Self.pin)).failureCode == .walletDisconnected)
            _ = try await tenant.admin.unlockSCAWallet(id: wallet.id)
            guard case .connectionSuccess(let connected) = await manager.connect() else { throw Failure("connect after unlock") }
            #expect(await device.heard.waitFor { $0.contains(.walletUnlocked) })

            try await tenant.admin.deleteSCAWallet(id: wallet.id)
            #expect(try await manager.synchronize() == [.walletDeleted])
            #expect(try await manager.state() == .notProvisioned)
            #expect(await connected.sign(try await Self.beneficiarySignature(manager), credentials: .pin(Self.pin)).failureCode == .walletDisconnected)
            guard case .provisioningRequired = await manager.connect() else { throw Failure("expected provisioningRequired") }
        }
    }

    @Test func settingsAndProductsChangedByTheBackEndReachTheDevice() async throws {
        try await EndToEndBackend.sqlite.withTenant { tenant in
            let applicationId = try #require(try await tenant.createIOSApplication().id)
            let device = try await Self.device(tenant, applicationId: applicationId)
            let manager = device.manager
            let wallet = try await Self.connectedWallet(tenant, device, applicationId: applicationId)
            _ = try await tenant.admin.updateSCAWalletSettings(id: wallet.id, SCAWalletSettings(maxPinAttempts: 5))
            #expect(try await Self.admin(tenant, "PUT", SCAAdminRoutes.Template.settings, ["walletId": wallet.id], "{}").status == 400)
            _ = try await tenant.admin.scaProductsUpdated(walletId: wallet.id, SCAProductsUpdated(data: .object(["cards": .array([.string("c-1")])])))
            #expect(try await Self.admin(tenant, "POST", SCAAdminRoutes.Template.productsUpdated, ["walletId": wallet.id], #"{"data":[1]}"#).status == 400)
            #expect(try await manager.synchronize() == [.settingsUpdated, .productsUpdated])
            #expect(try await manager.status().maxPinAttempts == 5)
            // A wallet that no longer needs a PIN: the next connect asks for nothing, possession alone signs.
            _ = try await tenant.admin.updateSCAWalletSettings(id: wallet.id, SCAWalletSettings(accessProtection: "none"))
            #expect(try await manager.synchronize() == [.settingsUpdated])
            #expect(await wallet.sign(try await Self.beneficiarySignature(manager, pattern: .none)).failureCode == .walletDisconnected)
            guard case .connectionSuccess(let again) = await manager.connect() else { throw Failure("connect") }
            #expect(await again.sign(try await Self.beneficiarySignature(manager, pattern: .pin), credentials: .pin(Self.pin)).failureCode
                    == .patternUnavailable)
            // Back to a PIN: new credentials first.
            _ = try await tenant.admin.updateSCAWalletSettings(id: wallet.id, SCAWalletSettings(accessProtection: "pin"))
            guard case .credentialsRequired(.new) = await manager.connect() else { throw Failure("expected credentialsRequired(.new)") }
        }
    }

    /// The feed read in the background: the back end's lock reaches the stream without a call from the app, and
    /// stops once the feed is stopped.
    @Test func theEventFeedRunsInTheBackground() async throws {
        try await EndToEndBackend.sqlite.withTenant { tenant in
            let (_, device, wallet) = try await Self.connectedDevice(tenant)
            await device.manager.startEventFeed(every: 1)
            _ = try await tenant.admin.lockSCAWallet(id: wallet.id, reason: "LOST_DEVICE")
            var heard = false
            for _ in 0..<50 where !heard {
                try await Task.sleep(for: .milliseconds(100))
                heard = await device.heard.events.contains(.walletLocked(reason: "LOST_DEVICE"))
            }
            #expect(heard)
            #expect(try await device.manager.state() == .locked)
            await device.manager.stopEventFeed()
            _ = try await tenant.admin.unlockSCAWallet(id: wallet.id)
            try await Task.sleep(for: .milliseconds(1_500))
            #expect(!(await device.heard.events.contains(.walletUnlocked)))
        }
    }

    @Test func walletsWithoutProtectionOrWithBiometry() async throws {
        try await EndToEndBackend.sqlite.withTenant { tenant in
            let applicationId = try #require(try await tenant.createIOSApplication().id)
            try await Self.putPolicies(tenant)
            // No protection: never asks for credentials; possession alone signs.
            let plain = try await Self.device(tenant, applicationId: applicationId)
            let created = try await Self.createWallet(tenant, applicationId: applicationId, protection: .none)
            _ = await plain.manager.provisioning.provision(activationCode: created.activationCode)
            guard case .connectionSuccess(let wallet) = await plain.manager.connect() else { throw Failure("connect") }
            let limits = "https://api.bank.example/v1/cards/123/limits"
            let body: JSONValue = .object(["paymentDailyLimit": .integer(500), "accessTag": .string("x")])
            let payload = try await plain.manager.payload(method: "PUT", url: limits, body: body)
            let proof = try #require(await wallet.sign(CustomerAuthenticatedSignature(patternName: .none, message: "Raise limit", payload: payload)).result())
            #expect(try await Self.verify(tenant, proof: proof, method: "PUT", url: limits, body: body).valid)
            #expect(await wallet.sign(CustomerAuthenticatedSignature(patternName: .pin, message: "m", payload: payload), credentials: .pin(Self.pin))
                .failureCode == .patternUnavailable)

            // Biometry: the platform's prompt decides.
            let prompts = ScriptedUserVerification(answers: [.verified, .refused(.failed("not recognised"))])
            let face = try await Self.device(tenant, applicationId: applicationId, userVerification: prompts)
            let biometric = try await Self.createWallet(tenant, applicationId: applicationId, protection: .biometric)
            _ = await face.manager.provisioning.provision(activationCode: biometric.activationCode)
            guard case .credentialsRequired(.new) = await face.manager.connect() else { throw Failure("expected credentialsRequired(.new)") }
            guard case .connectionSuccess(let faceWallet) = await face.manager.connect(newCredentials: .biometry) else { throw Failure("connect") }
            let signature = try await Self.beneficiarySignature(face.manager, pattern: .biometry)
            let approved = try #require(await faceWallet.sign(signature).result())
            #expect(try await Self.verify(tenant, proof: approved).pattern == .biometry)
            #expect(await faceWallet.sign(signature).failureCode == .userVerificationFailed)
            #expect(await prompts.prompts.map(\.reason) == [signature.message, signature.message])
        }
    }

    /// docs/sdk.md "SCA wallet (device)": PIN or biometry, interchangeably — a key for each, set at the first connect; the
    /// tenant checks each proof with the key its pattern names, and the bank's verification says which was used.
    @Test(arguments: EndToEndBackend.available)
    func aPinOrBiometricWalletSignsWithEitherFactor(_ backend: EndToEndBackend) async throws {
        try await backend.withTenant { tenant in
            let applicationId = try #require(try await tenant.createIOSApplication().id)
            try await Self.putPolicies(tenant)
            let prompts = ScriptedUserVerification(answers: [.verified, .refused(.failed("not recognised"))])
            let device = try await Self.device(tenant, applicationId: applicationId, userVerification: prompts)
            let created = try await Self.createWallet(tenant, applicationId: applicationId, protection: .pinOrBiometric)
            guard case .provisioningSuccess = await device.manager.provisioning.provision(activationCode: created.activationCode) else {
                throw Failure("provisioning failed")
            }
            guard case .connectionSuccess(let wallet) = await device.manager.connect(newCredentials: .pin(Self.pin)) else { throw Failure("connect") }
            let byFace = try #require(await wallet.sign(try await Self.beneficiarySignature(device.manager, pattern: .biometry)).result())
            let byPIN = try #require(await wallet.sign(try await Self.beneficiarySignature(device.manager, pattern: .pin),
                                                       credentials: .pin(Self.pin)).result())
            let faceVerdict = try await Self.verify(tenant, proof: byFace)
            let pinVerdict = try await Self.verify(tenant, proof: byPIN)
            #expect(faceVerdict.valid && faceVerdict.pattern == .biometry, "\(faceVerdict)")
            #expect(pinVerdict.valid && pinVerdict.pattern == .pin, "\(pinVerdict)")
            // A failed biometric check signs nothing; a wrong PIN is the tenant's to count.
            let refused = await wallet.sign(try await Self.beneficiarySignature(device.manager, pattern: .biometry))
            #expect(refused.failureCode == .userVerificationFailed)
            #expect(await wallet.sign(try await Self.beneficiarySignature(device.manager, pattern: .pin), credentials: .pin(Self.otherPin))
                .failureCode == .wrongCredentials)
            #expect(await prompts.prompts.count == 2)
        }
    }

    /// docs/sdk.md "SCA wallet (device)": `disconnect()` ends the handle and keeps the wallet; `clean()` also drops the
    /// cached policies, which the next signature fetches from the tenant again.
    @Test func disconnectAndCleanEndTheHandleAndKeepTheWallet() async throws {
        try await EndToEndBackend.sqlite.withTenant { tenant in
            let (_, device, wallet) = try await Self.connectedDevice(tenant)
            let policyFetches = { device.recorder.everything.components(separatedBy: "GET " + tenant.baseURL + SCARoutes.Template.policies.template).count - 1 }
            #expect(await wallet.sign(try await Self.beneficiarySignature(device.manager), credentials: .pin(Self.pin)).result() != nil)
            let fetchedBefore = policyFetches()
            #expect(fetchedBefore >= 1)

            await device.manager.disconnect()
            #expect(await wallet.sign(try await Self.beneficiarySignature(device.manager), credentials: .pin(Self.pin)).failureCode == .walletDisconnected)
            #expect(try await device.manager.state() == .ready)
            guard case .connectionSuccess(let again) = await device.manager.connect() else { throw Failure("connect after disconnect") }
            let proof = try #require(await again.sign(try await Self.beneficiarySignature(device.manager), credentials: .pin(Self.pin)).result())
            #expect(try await Self.verify(tenant, proof: proof).valid)
            #expect(policyFetches() == fetchedBefore, "disconnect() kept the cached policies")

            await device.manager.clean()
            #expect(await again.sign(try await Self.beneficiarySignature(device.manager), credentials: .pin(Self.pin)).failureCode == .walletDisconnected)
            guard case .connectionSuccess(let third) = await device.manager.connect() else { throw Failure("connect after clean") }
            let afterClean = try #require(await third.sign(try await Self.beneficiarySignature(device.manager), credentials: .pin(Self.pin)).result())
            #expect(try await Self.verify(tenant, proof: afterClean).valid)
            #expect(policyFetches() == fetchedBefore + 1, "clean() dropped the cached policies")
            let status = try await device.manager.status()
            #expect(status.state == .ready && status.credentialsSet == true)
        }
    }

    @Test func eligibilityDeniesRecordsAndAnnouncesSunsets() async throws {
        try await EndToEndBackend.sqlite.withTenant { tenant in
            let applicationId = try #require(try await tenant.createIOSApplication().id)
            let rooted = try await Self.device(tenant, applicationId: applicationId, integrity: ["root"])
            guard case .deviceNotEligible(let reason, let reference) = await rooted.manager.provisioning.checkEligibility() else {
                throw Failure("a rooted device was eligible")
            }
            #expect(reason == "DEVICE_INTEGRITY")
            let denial = try await tenant.admin.scaEligibilityDenial(reference: reference)
            #expect(denial.signals == ["root"] && denial.device.model == "iPhone16,1" && denial.device.appVersion == "2.4.0")

            let device = try await Self.device(tenant, applicationId: applicationId)
            let wallet = try await Self.connectedWallet(tenant, device, applicationId: applicationId)
            let sunset = Date().addingTimeInterval(60 * 86_400)
            let rules = SCAEligibilityRules(blockedDeviceModels: ["iPhone9,3"],
                                            minimumAppVersions: [SCAMinimumAppVersion(applicationId: applicationId, version: "2.5", sunsetAt: sunset)])
            _ = try await tenant.admin.replaceSCAEligibilityRules(rules)
            let events = try await device.manager.synchronize()
            guard case .appSunsetScheduled(let version, let date)? = events.first, events.count == 1 else { throw Failure("\(events)") }
            #expect(version == "2.5" && abs(date.timeIntervalSince(sunset)) < 1)
            // A device about to be provisioned hears of it from its eligibility check.
            let newcomer = try await Self.device(tenant, applicationId: applicationId)
            guard case .deviceEligible = await newcomer.manager.provisioning.checkEligibility() else { throw Failure("not eligible") }
            #expect(await newcomer.heard.waitFor { $0.contains { if case .appSunsetScheduled = $0 { true } else { false } } })
            let old = try await Self.device(tenant, applicationId: applicationId, model: "iPhone9,3")
            guard case .deviceNotEligible("DEVICE_MODEL_BLOCKED", _) = await old.manager.provisioning.checkEligibility() else { throw Failure("blocked") }

            var blocking = rules
            blocking.blockedDeviceModels.append("iPhone16,1")
            _ = try await tenant.admin.replaceSCAEligibilityRules(blocking)
            #expect(try await device.manager.synchronize() == [.deviceEligibilityLost(reason: "DEVICE_MODEL_BLOCKED")])
            _ = wallet
        }
    }

    @Test func delegatesHearWhatTheStreamsHear() async throws {
        try await EndToEndBackend.sqlite.withTenant { tenant in
            let applicationId = try #require(try await tenant.createIOSApplication().id)
            let device = try await Self.device(tenant, applicationId: applicationId)
            let delegate = RecordingDelegate()
            await device.manager.setDelegate(delegate)
            await device.manager.setProvisioningDelegate(delegate)
            await device.manager.setEventListener(delegate)
            _ = await device.manager.connect()
            _ = await device.manager.provisioning.checkEligibility()
            let created = try await Self.createWallet(tenant, applicationId: applicationId)
            _ = await device.manager.provisioning.provision(activationCode: "0000-0000-0000")
            _ = await device.manager.provisioning.provision(activationCode: created.activationCode)
            _ = await device.manager.connect()
            _ = await device.manager.connect(newCredentials: .pin(Self.pin))
            #expect(delegate.calls == ["provisioningRequired", "eligible", "provisioningError INVALID_ACTIVATION_CODE", "provisioningSuccess",
                                       "credentialsRequired new", "connectionSuccess"], "\(delegate.calls)")
            #expect(delegate.events.contains(.walletLoaded) && delegate.events.contains(.credentialsRequired(.new)))
        }
    }
}

extension SignatureResult {
    var failureCode: HoldfastErrorCode? {
        if case .failure(let error) = self { return error.code }
        return nil
    }
}

/// Every event a manager's `events` stream delivers, in order.
actor EventRecorder {
    private(set) var events: [WalletEvent] = []
    private var task: Task<Void, Never>?

    func listen(to manager: WalletManager) {
        let stream = manager.events
        task = Task { for await event in stream { self.record(event) } }
    }

    private func record(_ event: WalletEvent) { events.append(event) }

    /// Whether the events satisfy `condition` within five seconds (the stream delivers them asynchronously).
    func waitFor(_ condition: @Sendable ([WalletEvent]) -> Bool) async -> Bool {
        for _ in 0..<500 {
            if condition(events) { return true }
            try? await Task.sleep(for: .milliseconds(10))
        }
        return condition(events)
    }
}

/// Every delegate call, by name.
final class RecordingDelegate: WalletManagerDelegate, WalletProvisioningDelegate, WalletEventListener, @unchecked Sendable {
    // @unchecked: the lists are only read and written under `lock`.
    private let lock = NSLock()
    private var recorded: [String] = []
    private var heard: [WalletEvent] = []
    var calls: [String] { lock.withLock { recorded } }
    var events: [WalletEvent] { lock.withLock { heard } }
    private func note(_ call: String) { lock.withLock { recorded.append(call) } }

    func onConnectionSuccess(_ wallet: Wallet) { note("connectionSuccess") }
    func onProvisioningRequired() { note("provisioningRequired") }
    func onCredentialsRequired(_ kind: WalletCredentialsKind) { note("credentialsRequired \(kind.rawValue)") }
    func onConnectionError(_ error: HoldfastError) { note("connectionError \(error.code)") }
    func onDeviceEligible(_ features: Set<WalletFeature>) { note("eligible") }
    func onDeviceNotEligible(reason: SCAIneligibilityReason, denialReference: String) { note("notEligible \(reason)") }
    func onCheckEligibilityError(_ error: HoldfastError) { note("eligibilityError \(error.code)") }
    func onProvisioningSuccess(walletId: String) { note("provisioningSuccess") }
    func onProvisioningError(_ error: HoldfastError) { note("provisioningError \(error.code)") }
    func onWalletEvent(_ event: WalletEvent) { lock.withLock { heard.append(event) } }
}

/// `holdfast device … sca …` (docs/command-line.md "The `holdfast` command"): the built binary's simulated device against a
/// `holdfast serve` process logging at debug, one process per call, the wallet kept in the state folder between
/// calls; afterwards the PINs are searched for in everything the server logged and every command printed.
@Suite struct SCADeviceCommandTests {
    struct Report: Decodable {
        struct Wallet: Decodable { var state: String; var walletId: String?; var pinAttemptsLeft: Int?; var credentialsSet: Bool? }
        struct Event: Decodable { var type: String; var reason: String? }
        struct Failure: Decodable { var code: String }
        var ok: Bool
        var outcome: String?
        var credentials: String?
        var eligible: Bool?
        var wallet: Wallet?
        var events: [Event]?
        var error: Failure?
    }

    @Test func provisionSignChangePinAndReadEventsFromTheCommandLine() async throws {
        let port = try RawConnection.freePort()
        let server = try ServeProcessTests.Server(port: port, environment: ["HOLDFAST_LOG_LEVEL": "debug", "HOLDFAST_RATE_LIMIT_PER_SEC": "1000",
                                                                            "HOLDFAST_RATE_LIMIT_BURST": "1000"])
        defer { server.process.terminate() }
        #expect(try await server.waitFor("listening on"))
        let baseURL = "http://127.0.0.1:\(port)"
        let tenant = EndToEndTenant(baseURL: baseURL, admin: AdminClient(baseURL: baseURL, adminKey: try #require(server.bootstrapKey)),
                                    scratch: server.data.appendingPathComponent("devices"))
        var printed = ""
        do {
            let applicationId = try #require(try await tenant.createIOSApplication().id)
            try await SCAWalletEndToEndTests.putPolicies(tenant)
            let state = tenant.scratch.appendingPathComponent("sca-cli")
            let device = ["device", "--state", state.path, "--tenant", tenant.baseURL, "--application", applicationId, "sca"]
            func sca(_ arguments: [String]) async throws -> (status: Int32, report: Report?, output: String, error: String) {
                let run = try await ServeProcessTests.run(device + arguments)
                printed += run.output + run.error
                return (run.status, try? JSONDecoder().decode(Report.self, from: Data(run.output.utf8)), run.output, run.error)
            }
            let eligible = try await sca(["eligibility", "--app-version", "3.1.0"])
            #expect(eligible.report?.eligible == true, "\(eligible.error)")
            let status0 = try await sca(["status"])
            #expect(status0.report?.wallet?.state == "notProvisioned")

            let created = try await SCAWalletEndToEndTests.createWallet(tenant, applicationId: applicationId)
            // Every input is checked before the one-time code is spent: a malformed PIN provisions nothing, and the
            // retry with a good PIN on the same code succeeds.
            let shortPIN = try await sca(["provision", "--activation-code", created.activationCode, "--pin", "12"])
            #expect(shortPIN.status == 65 && shortPIN.report?.error?.code == "VALIDATION_FAILED", "\(shortPIN.output) \(shortPIN.error)")
            #expect(try await sca(["status"]).report?.wallet?.state == "notProvisioned")
            let provisioned = try await sca(["provision", "--activation-code", created.activationCode, "--pin", "246810"])
            #expect(provisioned.status == 0 && provisioned.report?.outcome == "connectionSuccess", "\(provisioned.error)")
            #expect(provisioned.report?.wallet?.walletId == created.walletId && provisioned.report?.wallet?.credentialsSet == true)
            #expect(!provisioned.output.contains("246810"))

            let body = #"{"name":"Alex Martin","iban":"FR7630001007941234567890185","accessTag":"t-9"}"#
            let signed = try await sca(["sign", "--pin", "246810", "--method", "POST", "--url", SCAWalletEndToEndTests.beneficiaryURL,
                                        "--body", body, "--message", "Add Alex Martin"])
            #expect(signed.status == 0, "\(signed.error)")
            let jws = signed.output.trimmingCharacters(in: .whitespacesAndNewlines)
            #expect(jws.split(separator: ".").count == 3 && !jws.contains("{"))
            let verdict = try await SCAWalletEndToEndTests.verify(tenant, proof: jws, body: try JSONValue(json: Array(body.utf8)))
            #expect(verdict.valid && verdict.pattern == .pin, "\(verdict)")

            let wrong = try await sca(["sign", "--pin", "135790", "--method", "POST", "--url", SCAWalletEndToEndTests.beneficiaryURL,
                                       "--body", body, "--message", "Add Alex Martin"])
            #expect(wrong.status == 1 && wrong.output.isEmpty && wrong.error.contains("WRONG_CREDENTIALS"))
            // The integrity is checked again before each signature: a signal makes the device ineligible, until an
            // eligibility check finds it eligible again.
            let hooked = try await sca(["sign", "--integrity-signal", "hooking", "--method", "POST", "--url", SCAWalletEndToEndTests.beneficiaryURL,
                                        "--body", body, "--message", "Add Alex Martin"])
            #expect(hooked.status == 1 && hooked.output.isEmpty && hooked.error.contains("DEVICE_NOT_ELIGIBLE"), "\(hooked.error)")
            let still = try await sca(["sign", "--method", "POST", "--url", SCAWalletEndToEndTests.beneficiaryURL, "--body", body, "--message", "m"])
            #expect(still.status == 1 && still.error.contains("DEVICE_NOT_ELIGIBLE"))
            #expect(try await sca(["eligibility"]).report?.eligible == true)
            let again = try await sca(["sign", "--pin", "246810", "--method", "POST", "--url", SCAWalletEndToEndTests.beneficiaryURL,
                                       "--body", body, "--message", "Add Alex Martin"])
            #expect(again.status == 0, "\(again.error)")
            // A malformed PIN is refused before any PIN is sent: a wrong current PIN with it costs no attempt, and a
            // malformed one or a URL that is not one refuses the signature before the PIN is checked.
            let attemptsBefore = try #require(try await sca(["status"]).report?.wallet?.pinAttemptsLeft)
            let malformed = try await sca(["change-pin", "--pin", "135790", "--new-pin", "12ab"])
            #expect(malformed.status == 65 && malformed.report?.error?.code == "VALIDATION_FAILED", "\(malformed.output)")
            let shortSign = try await sca(["sign", "--pin", "1357", "--method", "POST", "--url", SCAWalletEndToEndTests.beneficiaryURL,
                                           "--body", body, "--message", "Add Alex Martin"])
            #expect(shortSign.status == 65 && shortSign.output.isEmpty && shortSign.error.contains("VALIDATION_FAILED"), "\(shortSign.error)")
            let noURL = try await sca(["sign", "--pin", "135790", "--method", "POST", "--url", "beneficiaries", "--body", body, "--message", "m"])
            #expect(noURL.status == 65 && noURL.error.contains("VALIDATION_FAILED"), "\(noURL.error)")
            #expect(try await sca(["status"]).report?.wallet?.pinAttemptsLeft == attemptsBefore, "a refused input cost a PIN attempt")
            let changed = try await sca(["change-pin", "--pin", "246810", "--new-pin", "11223344"])
            #expect(changed.report?.outcome == "credentialsChanged" && changed.report?.wallet?.pinAttemptsLeft == 3, "\(changed.error)")
            let old = try await sca(["connect", "--pin", "246810"])
            #expect(old.status == 0 && old.report?.outcome == "connectionSuccess")
            let refused = try await sca(["change-pin", "--pin", "246810", "--new-pin", "99887766"])
            #expect(refused.status == 1 && refused.report?.error?.code == "WRONG_CREDENTIALS")

            _ = try await tenant.admin.lockSCAWallet(id: created.walletId, reason: "FRAUD_SUSPICION")
            let events = try await sca(["events"])
            #expect(events.report?.events?.map(\.type) == ["walletLocked"] && events.report?.events?.first?.reason == "FRAUD_SUSPICION",
                    "\(events.output)")
            #expect(try await sca(["status"]).report?.wallet?.state == "locked")
            let lockedConnect = try await sca(["connect"])
            #expect(lockedConnect.status == 1 && lockedConnect.report?.error?.code == "WALLET_LOCKED")
        }
        // The server's debug log saw every call (the access log names the SCA routes) and no PIN.
        #expect(server.output.contains(SCARoutes.Template.activations.template) && server.output.contains("/pin-attempts"))
        for pin in ["246810", "135790", "11223344", "99887766"] {
            #expect(!server.output.contains(pin), "the server logged \(pin)")
            #expect(!printed.contains(pin), "a command printed \(pin)")
        }
    }

    /// `--biometry` (docs/command-line.md "The `holdfast` command"): the simulated person's matching face or finger, for a wallet
    /// protected by biometry or by PIN or biometry; the proof's pattern says which factor signed.
    @Test func biometryFromTheCommandLine() async throws {
        let port = try RawConnection.freePort()
        let server = try ServeProcessTests.Server(port: port, environment: ["HOLDFAST_RATE_LIMIT_PER_SEC": "1000", "HOLDFAST_RATE_LIMIT_BURST": "1000"])
        defer { server.process.terminate() }
        #expect(try await server.waitFor("listening on"))
        let baseURL = "http://127.0.0.1:\(port)"
        let tenant = EndToEndTenant(baseURL: baseURL, admin: AdminClient(baseURL: baseURL, adminKey: try #require(server.bootstrapKey)),
                                    scratch: server.data.appendingPathComponent("devices"))
        let applicationId = try #require(try await tenant.createIOSApplication().id)
        try await SCAWalletEndToEndTests.putPolicies(tenant)
        let body = #"{"name":"Alex Martin","iban":"FR7630001007941234567890185","accessTag":"t-9"}"#
        func sca(_ state: String, _ arguments: [String]) async throws -> (status: Int32, report: Report?, output: String, error: String) {
            let run = try await ServeProcessTests.run(["device", "--state", tenant.scratch.appendingPathComponent(state).path, "--tenant",
                                                       tenant.baseURL, "--application", applicationId, "sca"] + arguments)
            return (run.status, try? JSONDecoder().decode(Report.self, from: Data(run.output.utf8)), run.output, run.error)
        }
        func signAndVerify(_ state: String, _ credentials: [String]) async throws -> SCAProofVerification? {
            let signed = try await sca(state, ["sign"] + credentials + ["--method", "POST", "--url", SCAWalletEndToEndTests.beneficiaryURL,
                                                                       "--body", body, "--message", "Add Alex Martin"])
            guard signed.status == 0 else {
                Issue.record("sign \(credentials): \(signed.error)")
                return nil
            }
            return try await SCAWalletEndToEndTests.verify(tenant, proof: signed.output.trimmingCharacters(in: .whitespacesAndNewlines),
                                                           body: try JSONValue(json: Array(body.utf8)))
        }

        // PIN or biometry: the PIN is set at provisioning (the biometry key with it); either signs.
        let either = try await SCAWalletEndToEndTests.createWallet(tenant, applicationId: applicationId, protection: .pinOrBiometric)
        let provisioned = try await sca("either", ["provision", "--activation-code", either.activationCode, "--pin", "246810"])
        #expect(provisioned.report?.outcome == "connectionSuccess", "\(provisioned.error)")
        let byFace = try await signAndVerify("either", ["--biometry"])
        #expect(byFace?.valid == true && byFace?.pattern == .biometry, "\(String(describing: byFace))")
        let byPIN = try await signAndVerify("either", ["--pin", "246810"])
        #expect(byPIN?.valid == true && byPIN?.pattern == .pin, "\(String(describing: byPIN))")
        let both = try await sca("either", ["sign", "--pin", "246810", "--biometry", "--method", "POST", "--url",
                                            SCAWalletEndToEndTests.beneficiaryURL, "--body", body, "--message", "m"])
        #expect(both.status == 65 && both.output.isEmpty && both.error.contains("VALIDATION_FAILED"), "\(both.error)")

        // Biometry only: set with --biometry at provisioning; a PIN has nothing to sign with.
        let face = try await SCAWalletEndToEndTests.createWallet(tenant, applicationId: applicationId, protection: .biometric)
        let faceProvisioned = try await sca("face", ["provision", "--activation-code", face.activationCode, "--biometry"])
        #expect(faceProvisioned.report?.outcome == "connectionSuccess" && faceProvisioned.report?.wallet?.credentialsSet == true,
                "\(faceProvisioned.output) \(faceProvisioned.error)")
        let faceProof = try await signAndVerify("face", ["--biometry"])
        #expect(faceProof?.valid == true && faceProof?.pattern == .biometry, "\(String(describing: faceProof))")
        let pinOnFace = try await sca("face", ["sign", "--pin", "246810", "--method", "POST", "--url", SCAWalletEndToEndTests.beneficiaryURL,
                                               "--body", body, "--message", "m"])
        #expect(pinOnFace.status != 0 && pinOnFace.output.isEmpty && pinOnFace.error.contains("PATTERN_UNAVAILABLE"), "\(pinOnFace.error)")
    }
}
