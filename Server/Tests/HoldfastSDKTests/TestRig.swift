import Foundation
import HoldfastProtocol
@testable import HoldfastSDK
import JOSE

/// One simulated device tethered to one `FakeTenant`.
struct TestRig {
    let clock = ManualClock(Date(timeIntervalSince1970: 1_800_000_000))
    let storage = MemorySecureStorage()
    let sleeper = RecordingSleeper()
    /// Automatic tethering runs only when a test runs the scheduled pass.
    let scheduler = ManualTetheringScheduler()
    let tenant: FakeTenant
    let attestation: any PlatformAttestation
    let secureArea: SoftwareSecureArea
    let holder: MobileCredentialHolder

    init(skew: TimeInterval = 0, attestation: (any PlatformAttestation)? = nil, retryPolicy: RetryPolicy = RetryPolicy(),
         configure: (inout PlatformConfiguration) -> Void = { _ in }) async throws {
        tenant = FakeTenant(deviceClock: clock, skew: skew)
        self.attestation = attestation ?? UnavailablePlatformAttestation()
        secureArea = SoftwareSecureArea(storage: storage)
        holder = MobileCredentialHolder(seams: Self.seams(storage: storage, secureArea: secureArea, attestation: self.attestation,
                                                          tenant: tenant, clock: clock, sleeper: sleeper, scheduler: scheduler))
        var configuration = PlatformConfiguration(tenantHost: "tenant.test", applicationId: "app-1", retryPolicy: retryPolicy)
        configure(&configuration)
        try await holder.initialize(platformConfiguration: configuration)
    }

    static func seams(storage: MemorySecureStorage, secureArea: SoftwareSecureArea, attestation: any PlatformAttestation,
                      tenant: FakeTenant, clock: ManualClock, sleeper: RecordingSleeper,
                      scheduler: ManualTetheringScheduler) -> PlatformSeams {
        PlatformSeams(secureStorage: storage, secureArea: secureArea, platformAttestation: attestation, transport: tenant,
                      clock: clock, sleeper: sleeper,
                      deviceInfo: DeviceInfo(deviceModel: "sim-1", deviceMake: "Holdfast", osVersion: "1.0"), jitter: { 1.0 },
                      tetheringScheduler: scheduler)
    }

    /// A second holder on the same device storage and tenant: what the app sees after a restart.
    func restartedHolder() async throws -> MobileCredentialHolder {
        let holder = MobileCredentialHolder(seams: Self.seams(storage: storage, secureArea: secureArea, attestation: attestation,
                                                              tenant: tenant, clock: clock, sleeper: sleeper,
                                                              scheduler: ManualTetheringScheduler()))
        try await holder.initialize(platformConfiguration: PlatformConfiguration(tenantHost: "tenant.test", applicationId: "app-1"))
        return holder
    }

    func state() async throws -> TetheringState? {
        try await holder.registrationState()
    }
}

/// The error a throwing async call ends with, or `nil` when it succeeds.
func holdfastError<T>(_ body: () async throws -> T) async -> HoldfastError? {
    do {
        _ = try await body()
        return nil
    } catch let error as HoldfastError {
        return error
    } catch {
        return HoldfastError(.invalidResponse, "unexpected \(error)")
    }
}

/// The claims of a compact JWT, unverified (tests only).
func claims(of jwt: String) throws -> [String: JSONValue] {
    let jws = try JWS(compactSerialization: jwt)
    return try JSONDecoder().decode([String: JSONValue].self, from: Data(jws.payload))
}
