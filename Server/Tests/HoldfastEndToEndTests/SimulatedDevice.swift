import Foundation
import HoldfastProtocol
import HoldfastSDK

/// One device running the real SDK against the tenant over real HTTP (`URLSessionTransport`), with the Linux seams
/// (file storage, software keys, no platform attestation → assertion path). Tests may swap the secure area (to keep
/// retired keys), take the device offline, or give it a `ManualClock`.
struct SimulatedDevice: Sendable {
    let holder: MobileCredentialHolder
    let network: SwitchableTransport
    let stateDirectory: URL
    let storage: FileSecureStorage

    /// Short backoff so that offline tests do not wait out the production delays.
    static let testRetryPolicy = RetryPolicy(maximumNetworkRetries: 1, initialDelay: 0.01, maximumDelay: 0.05)

    static func make(tenant: EndToEndTenant, applicationId: String, clock: any HoldfastClock = SystemClock(),
                     secureArea: (any SecureArea)? = nil, externalReferenceId: String? = nil,
                     developmentIntegrityBypass: Bool = false,
                     scheduler: any TetheringScheduler = ManualTetheringScheduler(),
                     platformAttestation: any PlatformAttestation = UnavailablePlatformAttestation(),
                     stateDirectory: URL? = nil, storage given: FileSecureStorage? = nil,
                     configure: (inout PlatformConfiguration) -> Void = { _ in }) async throws -> SimulatedDevice {
        // A given state directory is the same device started again (what it stored is read back from its files); a
        // given storage is the same device's store shared with another component of the app (one process).
        let directory = stateDirectory ?? tenant.scratch.appendingPathComponent(UUID().uuidString)
        let storage = given ?? FileSecureStorage(directory: directory, applicationId: "holdfast-sdk")
        let network = SwitchableTransport(URLSessionTransport(timeout: 10))
        // Tethering is driven by the test: explicit calls, or the scheduler's pass when the test runs it.
        let seams = PlatformSeams(secureStorage: storage, secureArea: secureArea ?? SoftwareSecureArea(storage: storage),
                                  platformAttestation: platformAttestation, transport: network, clock: clock,
                                  deviceInfo: DeviceInfo(deviceModel: "Simulated", deviceMake: "Holdfast", osVersion: "Linux e2e"),
                                  tetheringScheduler: scheduler)
        let holder = MobileCredentialHolder(seams: seams)
        var configuration = PlatformConfiguration(tenantHost: tenant.baseURL, applicationId: applicationId,
                                                  retryPolicy: testRetryPolicy, externalReferenceId: externalReferenceId)
        #if DEBUG
        configuration.developmentIntegrityBypass = developmentIntegrityBypass
        #endif
        configure(&configuration)
        try await holder.initialize(platformConfiguration: configuration)
        return SimulatedDevice(holder: holder, network: network, stateDirectory: directory, storage: storage)
    }
}

/// `HTTPTransport` that can be switched off, as a device going offline: while off, every send fails without an
/// HTTP answer (`NETWORK_ERROR` for the SDK).
final class SwitchableTransport: HTTPTransport, @unchecked Sendable {
    // @unchecked: `online` is only read and written under `lock`; `inner` is immutable.
    private let inner: any HTTPTransport
    private let lock = NSLock()
    private var online = true

    struct Offline: Error {}

    init(_ inner: any HTTPTransport) {
        self.inner = inner
    }

    var isOnline: Bool {
        get { lock.withLock { online } }
        set { lock.withLock { online = newValue } }
    }

    func send(_ request: TransportRequest) async throws -> TransportResponse {
        guard isOnline else { throw Offline() }
        return try await inner.send(request)
    }
}
