import Foundation
import Plumbing

/// Token buckets per request source (docs/operations.md "Configuration", `HOLDFAST_RATE_LIMIT_PER_SEC` and
/// `HOLDFAST_RATE_LIMIT_BURST`) for the routes anyone may call: each source holds up to `burst` tokens, refilled
/// at `rate` per second; a request takes one or is refused with the time until the next one.
///
/// The table is bounded (`maximumSources`): when it is full, buckets that have refilled completely (the same as
/// no bucket) are dropped, at most once a second; if it is still full, sources without a bucket share one
/// (`SourceKey.overflow`) until room is made. Each node keeps its own table: with N nodes a source gets up to N
/// times the rate, and nothing here depends on the ephemeral store being reachable.
final class SourceRateLimiter: Sendable {
    enum Decision: Equatable, Sendable {
        case allowed
        /// Whole seconds until a token is available (RFC 9110 §10.2.3 `Retry-After`), at least 1.
        case limited(retryAfterSeconds: Int)
    }

    private struct Bucket {
        var tokens: Double
        var updated: ContinuousClock.Instant
    }

    private struct State {
        var buckets: [SourceKey: Bucket] = [:]
        var lastSweep: ContinuousClock.Instant?
    }

    let rate: Double
    let burst: Double
    let maximumSources: Int
    private let state = Locked(State())

    init(rate: Double, burst: Int, maximumSources: Int) {
        self.rate = rate
        self.burst = Double(max(1, burst))
        self.maximumSources = max(1, maximumSources)
    }

    /// Sources that hold a bucket now (for tests and metrics).
    var trackedSources: Int { state.withLock { $0.buckets.count } }

    func admit(_ source: SourceKey, at now: ContinuousClock.Instant) -> Decision {
        state.withLock { state in
            var key = source
            if state.buckets[key] == nil, state.buckets.count >= maximumSources {
                sweep(&state, now)
                if state.buckets.count >= maximumSources { key = .overflow }
            }
            var bucket = state.buckets[key].map { refilled($0, now) } ?? Bucket(tokens: burst, updated: now)
            defer { state.buckets[key] = bucket }
            if bucket.tokens >= 1 {
                bucket.tokens -= 1
                return .allowed
            }
            let wait = (1 - bucket.tokens) / rate
            return .limited(retryAfterSeconds: max(1, Int(wait.rounded(.up))))
        }
    }

    private func refilled(_ bucket: Bucket, _ now: ContinuousClock.Instant) -> Bucket {
        guard now > bucket.updated else { return bucket }
        let elapsed = now - bucket.updated
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
        return Bucket(tokens: min(burst, bucket.tokens + seconds * rate), updated: now)
    }

    /// Drops the buckets that are full again; called inside `state.withLock`.
    private func sweep(_ state: inout State, _ now: ContinuousClock.Instant) {
        if let lastSweep = state.lastSweep, now - lastSweep < .seconds(1) { return }
        state.lastSweep = now
        state.buckets = state.buckets.filter { refilled($0.value, now).tokens < burst }
    }
}
