import Ephemeral
import Foundation
import Logging
import Plumbing

/// The ephemeral store divided by purpose (DESIGN.md §4 "Ephemeral state"): `challenges` holds spent registration
/// challenges, which anyone with a challenge can cause to be written; `replay` holds the DPoP `jti` records of
/// authenticated instance calls. In memory each part has its own room (`EphemeralCapacity`), so a flood of
/// registrations can fill the first and never the second; with Redis both are one Redis, under one key prefix.
public struct EphemeralStores: Sendable {
    public let challenges: any EphemeralStore
    public let replay: any EphemeralStore
    /// `memory` or `redis`.
    public let backendName: String
    private let parts: [Part]

    /// One part, with what it saw of a full store.
    private final class Part: Sendable {
        let name: String
        let store: any EphemeralStore
        let memory: InMemoryEphemeralStore?
        private let lastFull = Locked<ContinuousClock.Instant?>(nil)

        init(name: String, store: any EphemeralStore, memory: InMemoryEphemeralStore?) {
            self.name = name
            self.store = store
            self.memory = memory
        }

        func sawFull() { lastFull.withLock { $0 = .now } }

        /// Full now (memory), or a write was refused as full within the last `recentFullness` (Redis).
        func isFull() async -> Bool {
            if let memory { return await memory.isFull() }
            return lastFull.withLock { $0.map { ContinuousClock.now - $0 < EphemeralStores.recentFullness } ?? false }
        }
    }

    /// How long a refused write (Redis `OOM`) keeps `/health` reporting the store as full.
    static let recentFullness: Duration = .seconds(30)

    public static func make(_ backend: HoldfastConfiguration.EphemeralBackend, capacity: EphemeralCapacity,
                            redisClockSkew: Duration = .zero, logger: Logger) throws -> (stores: EphemeralStores, shutdown: @Sendable () async -> Void) {
        switch backend {
        case .memory:
            let challenges = InMemoryEphemeralStore(limits: .init(maxEntries: capacity.challengeEntries))
            let replay = InMemoryEphemeralStore(limits: .init(maxEntries: capacity.replayEntries))
            return (EphemeralStores(parts: [Part(name: "challenges", store: challenges, memory: challenges),
                                            Part(name: "replay", store: replay, memory: replay)],
                                    backendName: challenges.backendName), {})
        case .redis(let url):
            let store = try RedisEphemeralStore(url: url, clockSkewAllowance: redisClockSkew, logger: logger)
            return (EphemeralStores(parts: [Part(name: "challenges", store: store, memory: nil),
                                            Part(name: "replay", store: store, memory: nil)],
                                    backendName: store.backendName),
                    { await store.shutdown() })
        }
    }

    private init(parts: [Part], backendName: String) {
        self.parts = parts
        self.challenges = ReportingStore(part: parts[0])
        self.replay = ReportingStore(part: parts[1])
        self.backendName = backendName
    }

    /// Writes the store's epoch when it has none (docs/operations.md "A store that lost its memory"): at start, so that nothing issued after the start of
    /// the first node is refused for its age. A Redis that cannot be reached now is not fatal: its first single-use
    /// record writes the epoch then, refusing what was issued before.
    public func establishEpoch(now: Date, logger: Logger) async {
        for part in parts {
            do {
                _ = try await part.store.establishEpoch(at: now)
            } catch {
                logger.warning("the ephemeral store's epoch could not be read at start", metadata: ["error": .string("\(error)")])
            }
        }
    }

    /// Refuses to start on a Redis whose `maxmemory-policy` may evict what single use rests on (docs/operations.md "A store
    /// that lost its memory"): anything but `noeviction`. A Redis that does not allow `CONFIG GET` (a managed one)
    /// or cannot be reached now is logged as a warning, and the start goes on.
    public func checkEvictionPolicy(logger: Logger) async throws(ConfigurationError) {
        guard let redis = parts.lazy.compactMap({ $0.store as? RedisEphemeralStore }).first else { return }
        let check: RedisEvictionPolicyCheck
        do {
            check = try await redis.evictionPolicy()
        } catch {
            logger.warning("redis: maxmemory-policy could not be read at start; it must be noeviction",
                           metadata: ["event": "ephemeral.eviction_policy_unchecked", "error": .string("\(error)")])
            return
        }
        switch check {
        case .accepted:
            return
        case .refused(let policy, let reason):
            throw ConfigurationError(variable: "HOLDFAST_REDIS_URL",
                                     reason: "points at a Redis whose maxmemory-policy is \(policy): \(reason), which would let a spent item be used again; set maxmemory-policy noeviction")
        case .unreadable(let message):
            logger.warning("redis: CONFIG GET maxmemory-policy is not allowed; make sure the policy is noeviction",
                           metadata: ["event": "ephemeral.eviction_policy_unchecked", "error": .string(message)])
        }
    }

    /// The parts that are full now, by name (for `/health`).
    public func fullParts() async -> [String] {
        var names: [String] = []
        for part in parts where await part.isFull() { names.append(part.name) }
        return names
    }

    /// Forwards to its part's store and notes a refusal for being full.
    private struct ReportingStore: EphemeralStore {
        let part: Part

        var backendName: String { part.store.backendName }

        private func noting<T>(_ operation: () async throws -> T) async throws -> T {
            do {
                return try await operation()
            } catch let error as EphemeralStoreError where error.code == EphemeralStoreError.Code.storeFull {
                part.sawFull()
                throw error
            }
        }

        func setIfAbsent(_ key: String, value: [UInt8], ttl: Duration) async throws -> Bool {
            try await noting { try await part.store.setIfAbsent(key, value: value, ttl: ttl) }
        }

        func set(_ key: String, value: [UInt8], ttl: Duration) async throws {
            try await noting { try await part.store.set(key, value: value, ttl: ttl) }
        }

        func take(_ key: String) async throws -> [UInt8]? { try await part.store.take(key) }

        func get(_ key: String) async throws -> [UInt8]? { try await part.store.get(key) }

        @discardableResult func delete(_ key: String) async throws -> Bool { try await part.store.delete(key) }

        func increment(_ key: String, window: Duration) async throws -> Int64 {
            try await noting { try await part.store.increment(key, window: window) }
        }

        func establishEpoch(now: Int64) async throws -> Int64 { try await part.store.establishEpoch(now: now) }

        func spend(_ key: String, issuedAt: Int64, ttl: Duration, now: Int64) async throws -> SpendOutcome {
            try await noting { try await part.store.spend(key, issuedAt: issuedAt, ttl: ttl, now: now) }
        }

        func ping() async throws { try await part.store.ping() }
    }
}
