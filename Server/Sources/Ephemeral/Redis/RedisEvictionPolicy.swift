/// Redis's `maxmemory-policy` values (redis.conf, "MEMORY MANAGEMENT"): what Redis deletes when it reaches
/// `maxmemory`.
public enum RedisEvictionPolicy: String, Sendable, CaseIterable {
    case noEviction = "noeviction"
    case allKeysLRU = "allkeys-lru"
    case allKeysLFU = "allkeys-lfu"
    case allKeysRandom = "allkeys-random"
    case volatileLRU = "volatile-lru"
    case volatileLFU = "volatile-lfu"
    case volatileRandom = "volatile-random"
    case volatileTTL = "volatile-ttl"

    /// Why the store cannot work under this policy (docs/operations.md "Several nodes"), or nil for `noeviction`, the only one
    /// it accepts: every `allkeys-*` policy may evict any key, the store's epoch included; every `volatile-*` policy
    /// evicts keys that have an expiry, and each record of a spent item has one (it is kept for the item's lifetime
    /// and no longer) — an evicted record lets its item be used again.
    public var refusal: String? {
        switch self {
        case .noEviction:
            return nil
        case .allKeysLRU, .allKeysLFU, .allKeysRandom:
            return "it may evict any key, the store's epoch and the records of spent items included"
        case .volatileLRU, .volatileLFU, .volatileRandom, .volatileTTL:
            return "it evicts keys that have an expiry, and every record of a spent item has one (its lifetime)"
        }
    }
}

/// What `RedisEphemeralStore.evictionPolicy()` found.
public enum RedisEvictionPolicyCheck: Sendable, Equatable {
    /// `noeviction`.
    case accepted
    /// A policy that may evict what single use rests on, with why (or an unknown one).
    case refused(policy: String, reason: String)
    /// Redis did not answer `CONFIG GET` (a managed Redis that does not allow it, an ACL): the server's text.
    case unreadable(String)
}

extension RedisEphemeralStore {
    /// Reads `maxmemory-policy` (`CONFIG GET`): accepted only for `noeviction`. A refused `CONFIG` command is
    /// `.unreadable`, not an error; an unreachable Redis throws.
    public func evictionPolicy() async throws(EphemeralStoreError) -> RedisEvictionPolicyCheck {
        let reply: RESPValue
        do {
            reply = try await client.send(RedisCommand("CONFIG", [Array("GET".utf8), Array("maxmemory-policy".utf8)],
                                                       isIdempotent: true))
        } catch {
            guard error.code == EphemeralStoreError.Code.redisError else { throw error }
            return .unreadable(error.message)
        }
        guard case .array(let values?) = reply else { throw .redisProtocol("unexpected reply to CONFIG GET: \(reply)") }
        guard values.count == 2, case .bulkString(let bytes?) = values[1] else {
            return .unreadable("CONFIG GET maxmemory-policy answered \(values.count) values")
        }
        let name = String(decoding: bytes, as: UTF8.self)
        guard let policy = RedisEvictionPolicy(rawValue: name.lowercased()) else {
            return .refused(policy: name, reason: "it is not a policy this version knows; only noeviction is accepted")
        }
        if let reason = policy.refusal { return .refused(policy: policy.rawValue, reason: reason) }
        return .accepted
    }
}
