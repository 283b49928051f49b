import Foundation
import HoldfastProtocol

/// Automatic tethering (docs/sdk.md "Holder: automatic tethering"; DESIGN.md §1 T): once started — by
/// `MobileCredentialHolder.initialize(platformConfiguration:)` — tethering registers when the device is not
/// registered and renews the license when it is due (`renewalFraction` of its life), at start and then at each
/// renewal point, through the `TetheringScheduler` seam. When the tenant cannot be reached it tries again after an
/// exponential backoff (`PlatformConfiguration.automaticBackoff`). Events say what happened; a revoked instance
/// stops the work. `registerDevice()` and `renewLicense()` stay for apps that drive tethering themselves: they share
/// the work in flight with the automatic passes.
extension Tethering {
    /// Starts the automatic work: a first pass now, then one at each renewal point. Calling it again restarts it.
    public func startAutomaticTethering() async throws(HoldfastError) {
        _ = try requireConfigured()
        automationGeneration += 1
        automationRunning = true
        automaticFailures = 0
        await scheduleAutomaticPass(after: 0)
    }

    /// Stops the automatic work (what is in flight finishes; nothing more is scheduled).
    public func stopAutomaticTethering() async {
        automationGeneration += 1
        automationRunning = false
        await seams.tetheringScheduler.cancel()
    }

    /// Whether the automatic work is running.
    public var isAutomaticTetheringRunning: Bool { automationRunning }

    private func scheduleAutomaticPass(after delay: Double) async {
        let generation = automationGeneration
        await seams.tetheringScheduler.schedule(after: delay) { [weak self] in
            await self?.automaticPass(generation: generation)
        }
    }

    /// One pass: register when not registered, renew when due, then schedule the next pass.
    func automaticPass(generation: Int) async {
        guard generation == automationGeneration, automationRunning, let (configuration, client, _) = try? requireConfigured() else {
            return
        }
        let next: Double
        do throws(HoldfastError) {
            var state = try await loadState()
            if state == nil {
                do {
                    _ = try await registerDevice()
                } catch {
                    if error.code != .instanceRevoked { hub.yield(.registrationFailed(error)) }
                    throw error
                }
                state = try await loadState()
            }
            guard let registered = state else { return }
            let now = await client.serverNow()
            if registered.status == .pending {
                // An admin has to approve the instance; its license comes with the next successful renewal.
                next = configuration.automaticBackoff.maximumDelay
            } else if now >= renewalPoint(of: registered, configuration: configuration) {
                let renewed = try await renewDeduplicated()
                next = max(0, renewalPoint(of: renewed, configuration: configuration).timeIntervalSince(await client.serverNow()))
            } else {
                next = renewalPoint(of: registered, configuration: configuration).timeIntervalSince(now)
            }
            automaticFailures = 0
        } catch {
            // A revocation ends the work (`forgetIfRevoked`); anything else is tried again after a backoff, a tenant
            // that cannot be reached sooner than a refusal (which waits the longest backoff).
            guard generation == automationGeneration, automationRunning, error.code != .instanceRevoked else { return }
            let backoff = configuration.automaticBackoff
            next = error.isTransientOutcome || error.isTransient
                ? backoff.delay(forRetry: automaticFailures, jitter: seams.jitter())
                : backoff.maximumDelay
            automaticFailures += 1
        }
        guard generation == automationGeneration, automationRunning else { return }
        await scheduleAutomaticPass(after: next)
    }

    /// When the license of `state` is due for renewal (tenant clock): `renewalFraction` of its life; now when there
    /// is no license.
    func renewalPoint(of state: TetheringState, configuration: PlatformConfiguration) -> Date {
        guard state.licenseToken != nil, let expiresAt = state.licenseExpiresAt else { return .distantPast }
        let issuedAt = state.licenseIssuedAt ?? expiresAt
        return issuedAt.addingTimeInterval(expiresAt.timeIntervalSince(issuedAt) * configuration.renewalFraction)
    }
}
