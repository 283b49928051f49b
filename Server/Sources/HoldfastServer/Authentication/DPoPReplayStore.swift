import Ephemeral
import Foundation
import JOSE

/// The DPoP proofs spent (RFC 9449 §11.1), in the replay part of the ephemeral store (`EphemeralStores.replay`):
/// each proof's `jti` under its key's thumbprint, kept for the window in which the proof could still be accepted.
struct DPoPReplayStore: Sendable {
    let replay: any EphemeralStore

    /// Records the proof's `jti` with `setIfAbsent` for `window`, so that a replay fails on every node sharing the
    /// store. The proof counts as issued at the last millisecond of its `iat` second (the store's epoch check,
    /// docs/operations.md "A store that lost its memory").
    func spend(_ proof: DPoPVerifiedProof, window: Duration, now: Date) async throws -> SpendOutcome {
        try await replay.spend("holdfast:dpop:jti:\(proof.thumbprint):\(proof.jti)",
                               issuedAt: Timestamp.latestMillisecond(ofSecond: proof.issuedAt), ttl: window,
                               now: Timestamp.milliseconds(now))
    }
}
