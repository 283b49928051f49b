import Crypto
import Foundation
import HoldfastProtocol
import JOSE

/// Tethering (DESIGN.md §1 T and R): the app instance's registration with its tenant, its offline license, key
/// rotation, wallet attestation and the DPoP-signed requests made with the instance key.
///
/// `configure(_:)` ties it to a tenant; without it every call fails with `NOT_CONFIGURED`. `registerDevice()` runs
/// the registration protocol once per application id and persists the result in `SecureStorage`; the license is
/// then kept valid (renewed ahead of expiry when online, used offline until it expires), and the instance key signs
/// the app's requests (RFC 9449 DPoP).
///
/// Concurrency: tethering is an actor, and its in-flight work is shared, not repeated:
/// - concurrent `registerDevice()` calls **await the registration in flight** and all receive its result (one
///   registration on the wire);
/// - concurrent renewals (`license()` past the renewal point, `renewLicense()`) share one renewal;
/// - `rotateKey()` during a registration (or during another rotation) fails with `REGISTRATION_IN_PROGRESS`.
public actor Tethering {
    let seams: PlatformSeams
    var configuration: PlatformConfiguration?
    var client: TenantClient?
    var store: TetheringStore?
    /// The stored state, once read (the store is the truth; this saves reads).
    var cachedState: TetheringState?
    /// The stored revoked registration, once read (`revocationLoaded`).
    var cachedRevocation: RevokedRegistration?
    var revocationLoaded = false
    var registrationTask: Task<RegistrationResult, any Error>?
    var renewalTask: Task<TetheringState, any Error>?
    var rotationInFlight = false
    let hub = TetheringEventHub()
    /// Bumped by every start and stop of the automatic work, so that a pass scheduled before is ignored.
    var automationGeneration = 0
    var automationRunning = false
    /// Automatic passes that failed in a row (the backoff's exponent).
    var automaticFailures = 0

    public init(seams: PlatformSeams) {
        self.seams = seams
    }

    /// Ties tethering to a tenant and a holder application. Calling it again with another configuration drops what
    /// was cached for the previous one (nothing stored is deleted).
    public func configure(_ platformConfiguration: PlatformConfiguration) throws(HoldfastError) {
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
        if configuration != platformConfiguration {
            // The automatic work was for the previous configuration: `startAutomaticTethering()` starts it anew.
            automationGeneration += 1
            automationRunning = false
        }
        configuration = platformConfiguration
        client = TenantClient(baseURL: baseURL, transport: seams.transport, clock: seams.clock, extraHeaders: headers)
        store = TetheringStore(storage: seams.secureStorage, applicationId: platformConfiguration.applicationId)
        cachedState = nil
        cachedRevocation = nil
        revocationLoaded = false
    }

    /// Unties tethering from its tenant (docs/sdk.md "Holder: tethering is optional"): the automatic work stops and every
    /// tethering call fails with `NOT_CONFIGURED` again. Nothing stored is deleted.
    public func unconfigure() async {
        await stopAutomaticTethering()
        configuration = nil
        client = nil
        store = nil
        cachedState = nil
        cachedRevocation = nil
        revocationLoaded = false
    }

    /// Whether `configure(_:)` was called.
    public var isConfigured: Bool { configuration != nil }

    /// Every tethering event from now on (registered, renewed, renewal failed, revoked …), until the consumer stops.
    public nonisolated var events: AsyncStream<TetheringEvent> { hub.stream() }

    /// The configuration in use, `nil` before `configure(_:)`.
    public var platformConfiguration: PlatformConfiguration? { configuration }

    /// The stored registration of the configured application, `nil` when the device is not registered. Throws
    /// `SECURE_STORAGE_UNAVAILABLE` when the store cannot be read now.
    public func registrationState() async throws(HoldfastError) -> TetheringState? {
        _ = try requireConfigured()
        return try await loadState()
    }

    /// Forgets the local registration (state and key). The tenant's instance is left as it is. A revoked
    /// registration stays remembered (docs/sdk.md "Holder: the offline limit"): only a new registration clears it.
    public func deleteLocalRegistration() async throws(HoldfastError) {
        let (_, _, store) = try requireConfigured()
        if let state = try await store.load() {
            try? await seams.secureArea.deleteKey(alias: state.keyAlias)
        }
        try await store.delete()
        cachedState = nil
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

    /// The revoked registration the store remembers, if any (docs/sdk.md "Holder: the offline limit").
    func loadRevocation() async throws(HoldfastError) -> RevokedRegistration? {
        if revocationLoaded { return cachedRevocation }
        let (_, _, store) = try requireConfigured()
        cachedRevocation = try await store.loadRevocation()
        revocationLoaded = true
        return cachedRevocation
    }

    /// Remembers that the tenant revoked (or rejected) `instanceId`, before anything of the registration is forgotten.
    func rememberRevocation(instanceId: String) async throws(HoldfastError) {
        let (_, client, store) = try requireConfigured()
        let revoked = RevokedRegistration(instanceId: instanceId, revokedAt: await client.serverNow())
        try await store.saveRevocation(revoked)
        cachedRevocation = revoked
        revocationLoaded = true
    }

    /// Clears the remembered revocation once `state`, a registration made since, holds a license. A failed delete is
    /// harmless: the record no longer applies to that state (`RevokedRegistration.isSuperseded(by:)`) and is cleared
    /// at the next chance.
    func clearRevocation(supersededBy state: TetheringState) async {
        guard let store, let revoked = try? await loadRevocation(), revoked.isSuperseded(by: state) else { return }
        guard (try? await store.deleteRevocation()) != nil else { return }
        cachedRevocation = nil
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
