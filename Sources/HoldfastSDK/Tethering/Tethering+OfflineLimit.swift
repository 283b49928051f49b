import Foundation
import HoldfastProtocol

/// The offline limit (docs/sdk.md "Holder: the offline limit"; the application's `maxTimeOfflineInSecs`): once the
/// license has expired — on the device's clock corrected by the offset to the tenant's clock stored with it — the
/// credential operations (get, present, claim, SCA signing) fail with `LICENSE_EXPIRED` until a renewal succeeds.
/// The gate tries that renewal itself; offline it fails, and the automatic work keeps trying with its backoff.
///
/// A revoked instance has no license at all: once the tenant answered `INSTANCE_REVOKED` the same operations fail
/// with `INSTANCE_REVOKED` — offline, online and after a restart (`RevokedRegistration`, kept with the tethering
/// state) — until a new registration holds a license: the app's `registerDevice()`, or the automatic work started
/// at the next `initialize(platformConfiguration:)`, which registers a new instance when the tenant is reachable.
extension Tethering {
    /// Passes when tethering is not configured (no tethering, no limit), when the device is not registered or not
    /// approved yet (no license to expire) and no revoked registration is remembered, or when the license has not
    /// expired; otherwise renews, or throws `LICENSE_EXPIRED` when the renewal fails (the tenant cannot be reached,
    /// or refuses: the message says why) — but `INSTANCE_REVOKED` as it is, the instance being gone for good, and
    /// `INSTANCE_REVOKED` while a revoked registration is remembered and no new one with a license replaced it.
    public func requireWithinOfflineLimit() async throws(HoldfastError) {
        guard let (_, client, _) = try? requireConfigured() else { return }
        let current = try await loadState()
        if let revoked = try await loadRevocation(), !revoked.isSuperseded(by: current) {
            let pending = current.map { $0.instanceId != revoked.instanceId } ?? false
            throw HoldfastError(.instanceRevoked, "the tenant revoked instance \(revoked.instanceId) (learned at "
                                + "\(HoldfastJSON.formatDate(revoked.revokedAt))); no credential is used until "
                                + (pending ? "the new registration is approved" : "a new registration succeeds"))
        }
        guard let state = current, let expiresAt = state.licenseExpiresAt else { return }
        guard await client.serverNow() >= expiresAt else { return }
        do {
            _ = try await renewDeduplicated()
        } catch where error.code != .instanceRevoked {
            throw HoldfastError(.licenseExpired, "the license expired at \(expiresAt) and could not be renewed: \(error.message)",
                                httpStatus: error.httpStatus, problem: error.problem)
        }
    }

    /// The gate for a component that has only the seams and the platform configuration (the SCA wallet): the stored
    /// tethering state of that application decides, as `requireWithinOfflineLimit()` does.
    public static func requireWithinOfflineLimit(seams: PlatformSeams, platformConfiguration: PlatformConfiguration) async throws(HoldfastError) {
        let tethering = Tethering(seams: seams)
        try await tethering.configure(platformConfiguration)
        try await tethering.requireWithinOfflineLimit()
    }
}
