import Foundation
import HoldfastProtocol
@testable import HoldfastSDK
import Testing

/// The `Tethering` component on its own (DESIGN.md §1 T and R), and the holder as its facade: the concurrency
/// guarantees documented on the actor, configuration, and forwarding.
struct TetheringTests {
    /// A `Tethering` on the rig's device and tenant, configured for `app-1`, not through a holder.
    private func tethering(on rig: TestRig) async throws -> Tethering {
        let tethering = Tethering(seams: TestRig.seams(storage: rig.storage, secureArea: rig.secureArea, attestation: rig.attestation,
                                                       tenant: rig.tenant, clock: rig.clock, sleeper: rig.sleeper,
                                                       scheduler: ManualTetheringScheduler()))
        try await tethering.configure(PlatformConfiguration(tenantHost: "tenant.test", applicationId: "app-1"))
        return tethering
    }

    @Test func everyCallNeedsAConfiguration() async throws {
        let tethering = Tethering(seams: PlatformSeams(secureStorage: MemorySecureStorage(),
                                                       secureArea: SoftwareSecureArea(storage: MemorySecureStorage())))
        #expect(await tethering.isConfigured == false)
        #expect(await tethering.platformConfiguration == nil)
        #expect(await holdfastError { try await tethering.registerDevice() }?.code == .notConfigured)
        #expect(await holdfastError { try await tethering.registrationState() }?.code == .notConfigured)
        #expect(await holdfastError { try await tethering.license() }?.code == .notConfigured)
        #expect(await holdfastError { try await tethering.renewLicense() }?.code == .notConfigured)
        #expect(await holdfastError { try await tethering.rotateKey() }?.code == .notConfigured)
        #expect(await holdfastError { try await tethering.walletAttestationProof(audience: "https://i.test") }?.code == .notConfigured)
        #expect(await holdfastError { try await tethering.deleteLocalRegistration() }?.code == .notConfigured)
    }

    @Test func concurrentRegistrationsShareTheOneInFlight() async throws {
        let rig = try await TestRig()
        let tethering = try await tethering(on: rig)
        let results = try await withThrowingTaskGroup(of: RegistrationResult.self) { group in
            for _ in 0 ..< 20 { group.addTask { try await tethering.registerDevice() } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(Set(results.map(\.instanceId)) == ["inst-1"])
        #expect(await rig.tenant.count("register") == 1)
        #expect(await rig.tenant.count("challenges") == 1)
    }

    @Test func concurrentRenewalsShareOne() async throws {
        let rig = try await TestRig()
        let tethering = try await tethering(on: rig)
        _ = try await tethering.registerDevice()
        // Past the renewal point: every `license()` call wants a renewal; late ones see the renewed license.
        rig.clock.advance(by: 3000)
        let tokens = try await withThrowingTaskGroup(of: String.self) { group in
            for _ in 0 ..< 10 { group.addTask { try await tethering.license().token } }
            return try await group.reduce(into: Set<String>()) { $0.insert($1) }
        }
        #expect(tokens.count == 1)
        #expect(await rig.tenant.count("license") == 1)
    }

    @Test func rotationDuringRegistrationIsRegistrationInProgress() async throws {
        let rig = try await TestRig()
        let tethering = try await tethering(on: rig)
        await rig.tenant.setChallengeDelay(0.3)
        let registration = Task { try await tethering.registerDevice() }
        try await Task.sleep(nanoseconds: 50_000_000)
        #expect(await holdfastError { try await tethering.rotateKey() }?.code == .registrationInProgress)
        #expect(try await registration.value == .registered(instanceId: "inst-1"))
    }

    @Test func rotationDuringRotationIsRegistrationInProgress() async throws {
        let rig = try await TestRig()
        let tethering = try await tethering(on: rig)
        _ = try await tethering.registerDevice()
        await rig.tenant.setChallengeDelay(0.3)
        let rotation = Task { try await tethering.rotateKey() }
        try await Task.sleep(nanoseconds: 50_000_000)
        #expect(await holdfastError { try await tethering.rotateKey() }?.code == .registrationInProgress)
        try await rotation.value
        #expect(await rig.tenant.count("rotate") == 1)
    }

    @Test func reconfiguringDropsWhatWasCachedButKeepsWhatWasStored() async throws {
        let rig = try await TestRig()
        let tethering = try await tethering(on: rig)
        let first = try await tethering.registerDevice()
        try await tethering.configure(PlatformConfiguration(tenantHost: "tenant.test", applicationId: "app-2"))
        #expect(await tethering.platformConfiguration?.applicationId == "app-2")
        #expect(try await tethering.registrationState() == nil)
        try await tethering.configure(PlatformConfiguration(tenantHost: "tenant.test", applicationId: "app-1"))
        #expect(try await tethering.registrationState()?.instanceId == first.instanceId)
    }

    @Test func deletingTheLocalRegistrationRemovesStateAndKey() async throws {
        let rig = try await TestRig()
        let tethering = try await tethering(on: rig)
        _ = try await tethering.registerDevice()
        let state = try #require(try await tethering.registrationState())
        try await tethering.deleteLocalRegistration()
        #expect(try await tethering.registrationState() == nil)
        #expect(try await rig.secureArea.publicKey(alias: state.keyAlias) == nil)
        // The tenant's instance is left as it is; registering again makes a new one.
        #expect(try await tethering.registerDevice() == .registered(instanceId: "inst-2"))
    }

    @Test func invalidConfigurationIsRefusedAndLeavesTheComponentUnconfigured() async throws {
        let tethering = Tethering(seams: PlatformSeams(secureStorage: MemorySecureStorage(),
                                                       secureArea: SoftwareSecureArea(storage: MemorySecureStorage())))
        let error = await holdfastError {
            try await tethering.configure(PlatformConfiguration(tenantHost: "ftp://x", applicationId: "a"))
        }
        #expect(error?.code == .validationFailed)
        #expect(await tethering.isConfigured == false)
    }
}

/// `MobileCredentialHolder` is a facade: what it does, its `tethering` component did, and the reverse.
struct HolderFacadeTests {
    @Test func holderCallsReachItsTetheringComponent() async throws {
        let rig = try await TestRig()
        #expect(await rig.holder.isConfigured)
        #expect(await rig.holder.tethering.isConfigured)
        let result = try await rig.holder.registerDevice()
        #expect(try await rig.holder.tethering.registrationState()?.instanceId == result.instanceId)
        #expect(try await rig.holder.tethering.registerDevice() == .alreadyRegistered(instanceId: result.instanceId))
        #expect(try await rig.holder.license() == rig.holder.tethering.license())
    }

    @Test func configuringTheComponentConfiguresTheHolder() async throws {
        let holder = MobileCredentialHolder(seams: PlatformSeams(secureStorage: MemorySecureStorage(),
                                                                 secureArea: SoftwareSecureArea(storage: MemorySecureStorage())))
        #expect(await holder.isConfigured == false)
        try await holder.tethering.configure(PlatformConfiguration(tenantHost: "tenant.test", applicationId: "app-1"))
        #expect(await holder.isConfigured)
    }

    @Test func registrationsThroughHolderAndComponentShareOneInFlight() async throws {
        let rig = try await TestRig()
        let holder = rig.holder
        let results = try await withThrowingTaskGroup(of: RegistrationResult.self) { group in
            for index in 0 ..< 10 {
                group.addTask {
                    if index.isMultiple(of: 2) { return try await holder.registerDevice() }
                    return try await holder.tethering.registerDevice()
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(Set(results.map(\.instanceId)) == ["inst-1"])
        #expect(await rig.tenant.count("register") == 1)
    }
}
