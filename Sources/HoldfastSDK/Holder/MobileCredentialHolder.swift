import Foundation
import HoldfastProtocol

/// The holder SDK's entry point (DESIGN.md §1): a thin facade over one component per capability.
///
/// Each capability is a component with its own state and its own tests; the holder builds them from one set of
/// `PlatformSeams` and forwards to them, so that an app can use the holder alone or reach a component directly.
/// Today there is `tethering` (DESIGN.md §1 T and R: registration, license, key rotation, wallet attestation,
/// signed requests), `statusLists` (status list tokens cached as docs/sdk.md "Holder: status" says) and `credentials`
/// (claiming, keeping and checking mDocs); presentation and the SCA wallet will sit beside them.
///
/// `initialize(platformConfiguration:)` ties the SDK to a tenant and keeps it tethered by itself; `initialize()` (or
/// no call) leaves it untethered, where every tethering call fails with `NOT_CONFIGURED`. The concurrency guarantees are tethering's (see `Tethering`): concurrent `registerDevice()`
/// calls await the registration in flight, concurrent renewals share one renewal, and `rotateKey()` during a
/// registration (or another rotation) fails with `REGISTRATION_IN_PROGRESS`. The holder keeps no state of its own.
public actor MobileCredentialHolder {
    /// Registration, license, key rotation, wallet attestation and signed requests.
    nonisolated public let tethering: Tethering
    /// Status list tokens, fetched and cached for the credentials' status checks.
    nonisolated public let statusLists: StatusListCache
    /// Claiming, keeping and checking mDocs.
    nonisolated public let credentials: Credentials
    /// Presenting them online (OpenID4VP 1.0, ISO/IEC TS 18013-7:2024).
    nonisolated public let presentations: Presentations

    public init(seams: PlatformSeams) {
        self.tethering = Tethering(seams: seams)
        self.statusLists = StatusListCache(storage: seams.secureStorage, transport: seams.transport, clock: seams.clock)
        self.credentials = Credentials(seams: seams, tethering: tethering, statusLists: statusLists)
        self.presentations = Presentations(seams: seams, credentials: credentials)
    }

    /// Ties the SDK to a tenant and a holder application, and starts automatic tethering (docs/sdk.md "Holder: automatic
    /// tethering"): the SDK registers when the device is not registered and keeps the license fresh by itself, through
    /// `seams.tetheringScheduler`; `tethering.events` says what happened. Calling it again with another configuration
    /// drops what was cached for the previous one (nothing stored is deleted).
    public func initialize(platformConfiguration: PlatformConfiguration) async throws(HoldfastError) {
        try await tethering.configure(platformConfiguration)
        try await tethering.startAutomaticTethering()
    }

    /// Initializes the SDK without a platform configuration (docs/sdk.md "Holder: tethering is optional"): no registration,
    /// no license and no offline limit; wallet attestation is unavailable, so only issuers that do not require it
    /// can be claimed from (others fail with `WALLET_ATTESTATION_UNAVAILABLE`). Credentials, status checks and
    /// presentations work as they do tethered.
    public func initialize() async {
        await tethering.unconfigure()
    }

    /// Every tethering event from now on (registered, renewed, renewal failed, revoked …).
    public nonisolated var tetheringEvents: AsyncStream<TetheringEvent> { tethering.events }

    /// Whether `initialize(platformConfiguration:)` was called.
    public var isConfigured: Bool {
        get async { await tethering.isConfigured }
    }
}
