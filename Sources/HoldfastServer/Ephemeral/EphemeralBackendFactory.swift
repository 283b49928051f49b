import Ephemeral
import Logging

/// Chooses the ephemeral store from the configuration (DESIGN.md §4 "Ephemeral state"): in memory for one
/// node, Redis (`HOLDFAST_REDIS_URL`) for several.
enum EphemeralBackendFactory {
    static func make(_ backend: HoldfastConfiguration.EphemeralBackend,
                     logger: Logger) throws -> (store: any EphemeralStore, shutdown: @Sendable () async -> Void) {
        switch backend {
        case .memory:
            return (InMemoryEphemeralStore(), {})
        case .redis(let url):
            let store = try RedisEphemeralStore(url: url, logger: logger)
            return (store, { await store.shutdown() })
        }
    }
}
