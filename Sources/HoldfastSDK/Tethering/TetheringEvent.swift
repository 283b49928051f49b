import Foundation
import Plumbing

/// What tethering tells the app (docs/sdk.md "Holder: automatic tethering"), whether the app's own call or the SDK's
/// automatic work caused it.
public enum TetheringEvent: Sendable, Hashable {
    /// The device registered with the tenant (`pending` while an admin has to approve it).
    case registered(instanceId: String, pending: Bool)
    /// An automatic registration failed; the SDK tries again later (after a backoff when the tenant was unreachable).
    case registrationFailed(HoldfastError)
    /// The license was renewed; it now expires at `expiresAt` (tenant clock).
    case renewed(License)
    /// A renewal failed; when the tenant was unreachable (`NETWORK_ERROR`) the SDK tries again after a backoff.
    case renewalFailed(HoldfastError)
    /// The tenant revoked (or rejected) the instance: its local state and key are gone, the automatic work stops, and
    /// the credential operations refuse with `INSTANCE_REVOKED` until a new registration holds a license (docs/sdk.md
    /// "Holder: the offline limit").
    case revoked(instanceId: String)
}

/// Hands every tethering event to each live `events` stream.
final class TetheringEventHub: Sendable {
    private let continuations = Locked<[UUID: AsyncStream<TetheringEvent>.Continuation]>([:])

    func stream() -> AsyncStream<TetheringEvent> {
        AsyncStream { continuation in
            let id = UUID()
            continuations.withLock { $0[id] = continuation }
            continuation.onTermination = { [weak self] _ in
                self?.continuations.withLock { _ = $0.removeValue(forKey: id) }
            }
        }
    }

    func yield(_ event: TetheringEvent) {
        for continuation in continuations.withLock({ Array($0.values) }) { continuation.yield(event) }
    }
}
