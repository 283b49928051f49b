import Crypto
import Foundation
import HoldfastProtocol
@testable import HoldfastSDK
import JOSE
import Testing

/// DESIGN.md §1 R: registerDevice() against the scripted tenant.
struct RegistrationTests {
    @Test func registrationHappyPathStoresTheInstance() async throws {
        let rig = try await TestRig()
        let result = try await rig.holder.registerDevice()
        guard case .registered(let instanceId) = result else { Issue.record("not registered: \(result)"); return }
        let state = try #require(try await rig.state())
        #expect(state.instanceId == instanceId && state.status == .registered && state.appAttestationType == AppAttestationType.none)
        #expect(state.platform == "linux" && state.licenseToken != nil && state.licenseExpiresAt != nil)
        #expect(try await rig.secureArea.publicKey(alias: state.keyAlias) != nil)
        // The tenant stored the key the SDK holds; the request carried docs/server-api.md's registration wire format.
        let tenantInstance = try #require(await rig.tenant.instances[instanceId])
        #expect(tenantInstance.publicKey.x963Representation == (try await rig.secureArea.publicKey(alias: state.keyAlias))?.x963Representation)
        let body = try #require(await rig.tenant.lastRequest("register")?.body)
        let request = try HoldfastJSON.decode(InstanceRegistrationRequest.self, from: body)
        #expect(request.deviceDetails == DeviceDetails(deviceModel: "sim-1", deviceMake: "Holdfast", osVersion: "1.0"))
        #expect(request.sdkDetails.sdkVersion == HoldfastSDKInfo.version && request.attestation == nil && request.assertion != nil)
    }

    @Test func registrationWithPlatformAttestation() async throws {
        let attestation = ScriptedAttestation()
        let rig = try await TestRig(attestation: attestation)
        await rig.tenant.setRequiresAttestation(true)
        _ = try await rig.holder.registerDevice()
        let state = try #require(try await rig.state())
        #expect(state.appAttestationType == .appAttestation && state.attestationKeyId == Data(repeating: 7, count: 32).base64EncodedString())
        let request = try HoldfastJSON.decode(InstanceRegistrationRequest.self, from: try #require(await rig.tenant.lastRequest("register")?.body))
        #expect(request.assertion == nil && request.keyId != nil)
    }

    @Test func registrationIsIdempotentWithoutNetwork() async throws {
        let rig = try await TestRig()
        let first = try await rig.holder.registerDevice()
        let requestsBefore = await rig.tenant.requests.count
        #expect(try await rig.holder.registerDevice() == .alreadyRegistered(instanceId: first.instanceId))
        // A restarted app reads the stored registration.
        let restarted = try await rig.restartedHolder()
        #expect(try await restarted.registerDevice() == .alreadyRegistered(instanceId: first.instanceId))
        #expect(await rig.tenant.requests.count == requestsBefore)
    }

    @Test func concurrentRegistrationsMakeOneOnTheWire() async throws {
        let rig = try await TestRig()
        let holder = rig.holder
        let results = try await withThrowingTaskGroup(of: RegistrationResult.self) { group in
            for _ in 0 ..< 20 { group.addTask { try await holder.registerDevice() } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(Set(results.map(\.instanceId)).count == 1)
        #expect(await rig.tenant.count("register") == 1)
        #expect(await rig.tenant.count("challenges") == 1)
    }

    @Test func withoutConfigurationTetheringIsNotConfigured() async throws {
        let holder = MobileCredentialHolder(seams: PlatformSeams(secureStorage: MemorySecureStorage(),
                                                                 secureArea: SoftwareSecureArea(storage: MemorySecureStorage())))
        #expect(await holdfastError { try await holder.registerDevice() }?.code == .notConfigured)
        #expect(await holdfastError { try await holder.walletAttestation(audience: nil) }?.code == .notConfigured)
        #expect(await holdfastError { try await holder.signRequest(TransportRequest(method: "GET", url: URL(string: "https://x.test")!)) }?.code
            == .notConfigured)
    }

    @Test func invalidTenantHostIsRefused() async throws {
        let holder = MobileCredentialHolder(seams: PlatformSeams(secureStorage: MemorySecureStorage(),
                                                                 secureArea: SoftwareSecureArea(storage: MemorySecureStorage())))
        let error = await holdfastError {
            try await holder.initialize(platformConfiguration: PlatformConfiguration(tenantHost: "ftp://x", applicationId: "a"))
        }
        #expect(error?.code == .validationFailed)
    }

    @Test func unavailableStorageIsNotAFreshInstall() async throws {
        let rig = try await TestRig()
        _ = try await rig.holder.registerDevice()
        let restartedWhileLocked = try await rig.restartedHolder()
        await rig.storage.setUnavailable(true)
        let before = await rig.tenant.requests.count
        #expect(await holdfastError { try await restartedWhileLocked.registerDevice() }?.code == .secureStorageUnavailable)
        #expect(await rig.tenant.requests.count == before)
        await rig.storage.setUnavailable(false)
        #expect(try await restartedWhileLocked.registerDevice() == .alreadyRegistered(instanceId: "inst-1"))
    }

    @Test func failedRegistrationLeavesNoStateAndNoKey() async throws {
        let rig = try await TestRig(retryPolicy: RetryPolicy(maximumNetworkRetries: 0))
        await rig.tenant.inject(.network, on: "register")
        #expect(await holdfastError { try await rig.holder.registerDevice() }?.code == .networkError)
        #expect(try await rig.state() == nil)
        let (aliasA, aliasB) = TetheringStore(storage: rig.storage, applicationId: "app-1").keyAliases()
        #expect(try await rig.secureArea.publicKey(alias: aliasA) == nil)
        #expect(try await rig.secureArea.publicKey(alias: aliasB) == nil)
    }

    @Test func crashBeforeTheStateWriteLeavesNoHalfState() async throws {
        let rig = try await TestRig()
        // The tenant registered the instance, but the state write "crashed".
        await rig.storage.failWrites(withPrefix: "holdfast.tethering")
        #expect(await holdfastError { try await rig.holder.registerDevice() }?.code == .secureStorageUnavailable)
        await rig.storage.failWrites(withPrefix: nil)
        let restarted = try await rig.restartedHolder()
        #expect(try await restarted.registrationState() == nil)
        // The next start registers cleanly; the key of the failed attempt is gone or overwritten.
        guard case .registered(let id) = try await restarted.registerDevice() else { Issue.record("not registered"); return }
        #expect(id == "inst-2")
        let state = try #require(try await restarted.registrationState())
        let key = try #require(try await rig.secureArea.publicKey(alias: state.keyAlias))
        #expect(await rig.tenant.instances["inst-2"]?.publicKey.x963Representation == key.x963Representation)
    }

    @Test func attestationRequiredIsNotRetried() async throws {
        let rig = try await TestRig()
        await rig.tenant.setRequiresAttestation(true)
        #expect(await holdfastError { try await rig.holder.registerDevice() }?.code == .attestationRequired)
        #expect(await rig.tenant.count("register") == 1)
        #expect(try await rig.state() == nil)
    }

    @Test func attestationUnavailableWithoutFallback() async throws {
        let rig = try await TestRig(configure: { $0.allowsAssertionFallback = false })
        #expect(await holdfastError { try await rig.holder.registerDevice() }?.code == .attestationUnavailable)
        #expect(await rig.tenant.count("register") == 0)
    }

    @Test func pendingRegistrationIsStoredAsPending() async throws {
        let rig = try await TestRig()
        await rig.tenant.setManualApproval(true)
        #expect(try await rig.holder.registerDevice() == .pending(instanceId: "inst-1"))
        #expect(try await rig.state()?.status == .pending)
        #expect(try await rig.holder.registerDevice() == .alreadyRegistered(instanceId: "inst-1"))
    }

    @Test func developmentBypassHeaderOnlyInDebugBuilds() async throws {
        #expect(HoldfastSDKInfo.developmentBypassCompiled == _isDebugAssertConfiguration())
        #if DEBUG
        let rig = try await TestRig(configure: { $0.developmentIntegrityBypass = true })
        _ = try await rig.holder.registerDevice()
        #expect(await rig.tenant.lastRequest("register")?.header(HoldfastHeaders.devMode) == "true")
        let plain = try await TestRig()
        _ = try await plain.holder.registerDevice()
        #expect(await plain.tenant.lastRequest("register")?.header(HoldfastHeaders.devMode) == nil)
        #endif
    }

    @Test func linuxSeamsPersistTheRegistrationOnDisk() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("holdfast-sdk-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let clock = ManualClock(Date(timeIntervalSince1970: 1_800_000_000))
        let tenant = FakeTenant(deviceClock: clock)
        func holder() async throws -> MobileCredentialHolder {
            var seams = PlatformSeams.linux(stateDirectory: directory)
            seams.transport = tenant
            seams.clock = clock
            seams.sleeper = RecordingSleeper()
            let holder = MobileCredentialHolder(seams: seams)
            try await holder.initialize(platformConfiguration: PlatformConfiguration(tenantHost: "tenant.test", applicationId: "app-1"))
            return holder
        }
        let first = try await holder().registerDevice()
        let restarted = try await holder()
        #expect(try await restarted.registerDevice() == .alreadyRegistered(instanceId: first.instanceId))
        try await restarted.renewLicense()
        #expect(await tenant.count("register") == 1)
    }

    @Test func rejectedRegistrationStoresNothing() async throws {
        let rig = try await TestRig()
        await rig.tenant.inject(.raw(201, #"{"instanceId":"inst-9","status":"rejected"}"#), on: "register")
        #expect(await holdfastError { try await rig.holder.registerDevice() }?.code == .instanceRevoked)
        #expect(try await rig.state() == nil)
    }

    @Test func registeredAnswerWithoutLicenseIsInvalidResponse() async throws {
        let rig = try await TestRig()
        await rig.tenant.inject(.raw(201, #"{"instanceId":"inst-9","status":"registered"}"#), on: "register")
        #expect(await holdfastError { try await rig.holder.registerDevice() }?.code == .invalidResponse)
        #expect(try await rig.state() == nil)
    }

    @Test func undecodableAnswerIsInvalidResponse() async throws {
        let rig = try await TestRig()
        await rig.tenant.inject(.raw(201, "<html>"), on: "challenges")
        #expect(await holdfastError { try await rig.holder.registerDevice() }?.code == .invalidResponse)
    }

    @Test func applicationIdMustBeBounded() async throws {
        let holder = MobileCredentialHolder(seams: PlatformSeams(secureStorage: MemorySecureStorage(),
                                                                 secureArea: SoftwareSecureArea(storage: MemorySecureStorage())))
        let error = await holdfastError {
            try await holder.initialize(platformConfiguration: PlatformConfiguration(tenantHost: "t.test", applicationId: ""))
        }
        #expect(error?.code == .validationFailed)
    }
}
