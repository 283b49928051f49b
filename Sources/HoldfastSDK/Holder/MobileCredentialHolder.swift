import Crypto
import Foundation
import HoldfastProtocol
import JOSE

/// The holder SDK's entry point (issue 5, "SDK"; DESIGN.md §1 T and R).
///
/// `initialize(platformConfiguration:)` ties it to a tenant; without it every tethering call fails with
/// `NOT_CONFIGURED`. `registerDevice()` runs the registration protocol once per application id and persists the
/// result in `SecureStorage`; the license is then kept valid (renewed ahead of expiry when online, used offline
/// until it expires), and the instance key signs the app's requests (DPoP).
///
/// Concurrency: the holder is an actor. Concurrent `registerDevice()` calls **await the registration in flight**
/// and all receive its result (one registration on the wire); concurrent renewals share one renewal too.
/// `rotateKey()` during a registration (or another rotation) fails with `REGISTRATION_IN_PROGRESS`.
public actor MobileCredentialHolder {
    let seams: PlatformSeams
    var configuration: PlatformConfiguration?
    var client: TenantClient?
    var store: TetheringStore?
    /// The stored state, once read (the store is the truth; this saves reads).
    var cachedState: TetheringState?
    var registrationTask: Task<RegistrationResult, any Error>?
    var renewalTask: Task<TetheringState, any Error>?
    var rotationInFlight = false

    public init(seams: PlatformSeams) {
        self.seams = seams
    }

    /// Ties the SDK to a tenant and a holder application. Calling it again with another configuration drops what
    /// was cached for the previous one (nothing stored is deleted).
    public func initialize(platformConfiguration: PlatformConfiguration) throws(HoldfastError) {
        guard let baseURL = platformConfiguration.baseURL else {
            throw HoldfastError(.validationFailed, "tenantHost \(platformConfiguration.tenantHost) is not a host or an http(s) URL")
        }
        guard !platformConfiguration.applicationId.isEmpty, platformConfiguration.applicationId.utf8.count <= 256 else {
            throw HoldfastError(.validationFailed, "applicationId must be 1 to 256 bytes")
        }
        var headers: [String: String] = [:]
        #if DEBUG
        if platformConfiguration.developmentIntegrityBypass {
            headers[HoldfastHeaders.devMode] = HoldfastHeaders.devModeEnabled
        }
        #endif
        configuration = platformConfiguration
        client = TenantClient(baseURL: baseURL, transport: seams.transport, clock: seams.clock, extraHeaders: headers)
        store = TetheringStore(storage: seams.secureStorage, applicationId: platformConfiguration.applicationId)
        cachedState = nil
    }

    /// Whether `initialize(platformConfiguration:)` was called.
    public var isConfigured: Bool { configuration != nil }

    /// The stored registration of the configured application, `nil` when the device is not registered. Throws
    /// `SECURE_STORAGE_UNAVAILABLE` when the store cannot be read now.
    public func registrationState() async throws(HoldfastError) -> TetheringState? {
        _ = try requireConfigured()
        return try await loadState()
    }

    /// Registration protocol steps 1–5 (issue 5). Idempotent: when registered it returns `alreadyRegistered`
    /// without touching the network. Concurrent calls await the one in flight. Nothing is stored until the tenant
    /// has answered `201`, and a key made by a failed attempt is deleted (or overwritten by the next attempt).
    public func registerDevice() async throws(HoldfastError) -> RegistrationResult {
        _ = try requireConfigured()
        if let task = registrationTask { return try await Self.value(of: task) }
        let task = Task { try await self.performRegistration() }
        registrationTask = task
        defer { registrationTask = nil }
        return try await Self.value(of: task)
    }

    /// Forgets the local registration (state and key). The tenant's instance is left as it is.
    public func deleteLocalRegistration() async throws(HoldfastError) {
        let (_, _, store) = try requireConfigured()
        if let state = try await store.load() {
            try? await seams.secureArea.deleteKey(alias: state.keyAlias)
        }
        try await store.delete()
        cachedState = nil
    }

    // MARK: registration

    private func performRegistration() async throws(HoldfastError) -> RegistrationResult {
        let (configuration, client, store) = try requireConfigured()
        // An unavailable store throws here: it is never taken for a fresh install.
        if let state = try await loadState() { return .alreadyRegistered(instanceId: state.instanceId) }
        let alias = store.candidateAlias(current: nil)
        do {
            let (response, evidence) = try await retrier(configuration).run { () async throws(HoldfastError) in
                try await self.registerOnce(alias: alias, configuration: configuration, client: client)
            }
            return try await record(response, evidence: evidence, configuration: configuration, client: client, store: store)
        } catch {
            try? await seams.secureArea.deleteKey(alias: alias)
            throw error
        }
    }

    private func registerOnce(alias: String, configuration: PlatformConfiguration,
                              client: TenantClient) async throws(HoldfastError) -> (InstanceRegistrationResponse, KeyEvidence) {
        let applicationId = configuration.applicationId
        let challenge = try await client.call("POST", path: TetheringRoutes.challenges(applicationId: applicationId),
                                              as: ChallengeResponse.self)
        let evidence = try await KeyEvidence.make(alias: alias, challenge: challenge.challenge, seams: seams,
                                                  allowsAssertionFallback: configuration.allowsAssertionFallback,
                                                  forceAssertion: Self.developmentBypass(configuration))
        let wire = evidence.attestation?.wire
        let request = InstanceRegistrationRequest(
            challenge: challenge.challenge, publicKey: evidence.publicKey.encoded, attestation: wire?.attestation,
            assertion: evidence.assertion, keyId: wire?.keyId, deviceDetails: seams.deviceInfo.wire,
            sdkDetails: SDKDetails(sdkVersion: configuration.sdkVersion), externalReferenceId: configuration.externalReferenceId)
        let response = try await client.call("POST", path: TetheringRoutes.instances(applicationId: applicationId),
                                             body: request, as: InstanceRegistrationResponse.self)
        return (response, evidence)
    }

    private func record(_ response: InstanceRegistrationResponse, evidence: KeyEvidence, configuration: PlatformConfiguration,
                        client: TenantClient, store: TetheringStore) async throws(HoldfastError) -> RegistrationResult {
        let now = await client.serverNow()
        switch response.status {
        case .rejected:
            throw HoldfastError(.instanceRevoked, "the tenant rejected the registration of instance \(response.instanceId)")
        case .registered:
            guard response.licenseToken != nil, response.licenseExpiresAt != nil else {
                throw HoldfastError(.invalidResponse, "a registered instance came without a license")
            }
        case .pending:
            break
        }
        let state = TetheringState(
            applicationId: configuration.applicationId, instanceId: response.instanceId, status: response.status,
            keyAlias: evidence.alias, platform: TetheringState.currentPlatform, appAttestationType: evidence.appAttestationType,
            attestationKeyId: evidence.attestationKeyId, registeredAt: now, keyRotatedAt: nil,
            clockOffsetMs: await client.clockOffsetMilliseconds, licenseToken: response.licenseToken,
            licenseIssuedAt: response.licenseToken == nil ? nil : now, licenseExpiresAt: response.licenseExpiresAt)
        try await store.save(state)
        cachedState = state
        return response.status == .pending ? .pending(instanceId: response.instanceId) : .registered(instanceId: response.instanceId)
    }

    // MARK: shared plumbing

    func requireConfigured() throws(HoldfastError) -> (PlatformConfiguration, TenantClient, TetheringStore) {
        guard let configuration, let client, let store else { throw HoldfastError.notConfigured() }
        return (configuration, client, store)
    }

    func loadState() async throws(HoldfastError) -> TetheringState? {
        if let cachedState { return cachedState }
        let (_, client, store) = try requireConfigured()
        let state = try await store.load()
        if let state { await client.setClockOffset(milliseconds: state.clockOffsetMs) }
        cachedState = state
        return state
    }

    func requireRegisteredState() async throws(HoldfastError) -> TetheringState {
        guard let state = try await loadState() else {
            throw HoldfastError(.notRegistered, "the device is not registered: call registerDevice() first")
        }
        return state
    }

    func save(_ state: TetheringState) async throws(HoldfastError) {
        let (_, client, store) = try requireConfigured()
        var state = state
        state.clockOffsetMs = await client.clockOffsetMilliseconds
        try await store.save(state)
        cachedState = state
    }

    func signer(for state: TetheringState) async throws(HoldfastError) -> SecureAreaSigner {
        let key: P256.Signing.PublicKey?
        do { key = try await seams.secureArea.publicKey(alias: state.keyAlias) } catch { throw HoldfastError.secureArea(error) }
        guard let key else { throw HoldfastError.secureArea(.keyNotFound(state.keyAlias)) }
        return SecureAreaSigner(secureArea: seams.secureArea, alias: state.keyAlias, publicKey: key)
    }

    func retrier(_ configuration: PlatformConfiguration) -> Retrier {
        Retrier(policy: configuration.retryPolicy, sleeper: seams.sleeper, jitter: seams.jitter)
    }

    static func developmentBypass(_ configuration: PlatformConfiguration) -> Bool {
        #if DEBUG
        configuration.developmentIntegrityBypass
        #else
        false
        #endif
    }

    static func value<T>(of task: Task<T, any Error>) async throws(HoldfastError) -> T {
        do { return try await task.value } catch { throw HoldfastError.wrap(error) }
    }
}
