/// The server's store for short-lived, single-use state: registration challenges, the DPoP `jti` replay cache
/// (RFC 9449 §11.1), nonces (RFC 9449 §8) and rate-limit counters.
///
/// DESIGN.md §4 ("Ephemeral state"): in memory by default (`InMemoryEphemeralStore`), Redis for several server
/// nodes (`RedisEphemeralStore`), so that single use holds across nodes. Every operation is atomic on its key:
/// `take` and `setIfAbsent` are the primitives that make a challenge or a `jti` usable exactly once.
///
/// A `ttl` or `window` must be positive; it is kept to the millisecond (rounded up), as Redis' `PX` keeps it.
public protocol EphemeralStore: Sendable {
    /// Stores `value` under `key` only if the key is absent (Redis `SET key value NX PX ttl`). True when stored.
    func setIfAbsent(_ key: String, value: [UInt8], ttl: Duration) async throws -> Bool
    /// Stores unconditionally with a lifetime (`SET key value PX ttl`).
    func set(_ key: String, value: [UInt8], ttl: Duration) async throws
    /// Atomically returns and deletes (Redis `GETDEL`): at most one caller ever gets a given value, across nodes.
    func take(_ key: String) async throws -> [UInt8]?
    /// The value under `key`, if present and not expired.
    func get(_ key: String) async throws -> [UInt8]?
    /// Removes `key`; true when it was present.
    @discardableResult func delete(_ key: String) async throws -> Bool
    /// Atomic counter with a window (`INCR` + `PEXPIRE` on first increment); returns the new count.
    ///
    /// The window starts at the first increment and is not extended by later ones (a fixed window).
    func increment(_ key: String, window: Duration) async throws -> Int64
    /// Establishes the store's epoch (docs/operations.md "A store that lost its memory"): the moment, in milliseconds since 1970,
    /// since which the store remembers every single-use item it recorded — `now` in memory, Redis's own `TIME` with
    /// Redis. Written when absent (no expiry), by every server node at start; returns the epoch as stored.
    func establishEpoch(now: Int64) async throws -> Int64
    /// Records the single use of an item issued at `issuedAt` (milliseconds since 1970), kept `ttl`, atomically with
    /// the store's epoch: `.issuedBeforeEpoch` when the item was issued before the epoch (the store may have lost its
    /// record of it: a Redis restarted without persistence), else `.spent` the first time and `.alreadySpent` after.
    /// A Redis whose epoch is missing, or that was started again since the epoch was written (its `run_id`
    /// changed), has lost its memory: the epoch is written again as that moment (and so refuses everything issued
    /// before, and with Redis within its clock-skew allowance after).
    func spend(_ key: String, issuedAt: Int64, ttl: Duration, now: Int64) async throws -> SpendOutcome
    /// Round trip to the backend, for /health.
    func ping() async throws
    /// A short name for logs/health: "memory" or "redis".
    var backendName: String { get }
}

/// What `EphemeralStore.spend` made of a single-use item.
public enum SpendOutcome: Sendable, Equatable {
    /// Recorded now: this is its one use.
    case spent
    /// Recorded before: a replay.
    case alreadySpent
    /// Issued before the store's epoch: it may have been spent and forgotten, so it is refused.
    case issuedBeforeEpoch
}

extension Duration {
    /// Whole milliseconds, rounded up so that a lifetime is never shortened; nil when not positive or too large.
    var ephemeralMilliseconds: Int64? {
        let (seconds, attoseconds) = components
        guard seconds >= 0, seconds < Int64.max / 1000 - 1 else { return nil }
        let attosecondsPerMillisecond: Int64 = 1_000_000_000_000_000
        var milliseconds = seconds * 1000 + attoseconds / attosecondsPerMillisecond
        if attoseconds % attosecondsPerMillisecond != 0 { milliseconds += 1 }
        return milliseconds > 0 ? milliseconds : nil
    }

    /// The milliseconds of a `ttl` / `window` argument, or `INVALID_TTL`.
    func ephemeralLifetime(_ name: String) throws(EphemeralStoreError) -> Int64 {
        guard let milliseconds = ephemeralMilliseconds else {
            throw EphemeralStoreError(code: EphemeralStoreError.Code.invalidTTL,
                                      message: "\(name) must be positive and finite, got \(self)")
        }
        return milliseconds
    }
}
