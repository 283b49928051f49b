import Ephemeral
import Foundation
import TestSupport
import Testing

/// The backends the shared test body runs against.
enum StoreKind: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case memory
    case redis

    var testDescription: String { rawValue }

    /// Memory always; Redis when HOLDFAST_TEST_REDIS_URL is set (`redisVariantsRun` reports the skip otherwise).
    static var available: [StoreKind] { TestEnvironment.redisURL == nil ? [.memory] : [.memory, .redis] }
}

/// A store under test, a second "server node" on the same state, and a way to let time pass.
struct StoreHarness: Sendable {
    let store: any EphemeralStore
    /// For Redis an independent `RedisEphemeralStore` (its own connections) on the same server, standing for a
    /// second server node; for memory the same store (one node).
    let otherNode: any EphemeralStore
    /// A lifetime short enough to wait out in a test.
    let shortTTL: Duration
    /// Lets `duration` pass: moves the manual clock (memory) or sleeps (Redis).
    let elapse: @Sendable (Duration) async throws -> Void
    let close: @Sendable () async -> Void

    static let redisSkipReason: Comment =
        "HOLDFAST_TEST_REDIS_URL not set: Redis variant skipped (e.g. redis-server --port 6390 --save '' --daemonize yes; export HOLDFAST_TEST_REDIS_URL=redis://127.0.0.1:6390)"

    /// Runs `setup` with a fresh key until one run of it took less than half of `shortTTL` of real time (twenty runs
    /// at most), and returns that key and what `setup` returned. With Redis the lifetimes run on the server's
    /// clock: checks that must see a short-lived key still alive prove nothing when a loaded machine took longer
    /// than the lifetime to make them, so such a run is repeated with a new key instead of failing by chance. The
    /// caller makes its assertions on the returned values, after this returns.
    func promptly<T>(_ setup: (_ key: String) async throws -> T) async throws -> (key: String, value: T) {
        let clock = ContinuousClock()
        var attempt = 1
        while true {
            let key = uniqueKey()
            let start = clock.now
            let value = try await setup(key)
            if clock.now - start < shortTTL / 2 || attempt == 20 { return (key, value) }
            attempt += 1
        }
    }

    /// The Redis server's `run_id` (`INFO server`), which changes when it restarts; nil for memory. A Redis that
    /// restarted without persistence lost every key, so a test seeing a key vanish can tell that from a store fault.
    func redisRunID() async throws -> String? {
        guard let redis = store as? RedisEphemeralStore else { return nil }
        let reply = try await redis.client.send(RedisCommand("INFO", [Array("server".utf8)], isIdempotent: true))
        guard case .bulkString(let bytes?) = reply else { return nil }
        return String(decoding: bytes, as: UTF8.self).split(whereSeparator: \.isNewline)
            .first { $0.hasPrefix("run_id:") }.map { String($0.dropFirst("run_id:".count)) }
    }

    /// A prefix unique to this test run, so runs and tests never see each other's keys.
    static let runPrefix = "holdfast-test-\(UUID().uuidString.prefix(8)):"

    /// Runs `body` with a fresh harness.
    static func with(_ kind: StoreKind, _ body: (StoreHarness) async throws -> Void) async throws {
        let harness: StoreHarness
        switch kind {
        case .memory:
            let time = ManualTime()
            let store = InMemoryEphemeralStore(timeSource: time.source)
            harness = StoreHarness(store: store, otherNode: store, shortTTL: .seconds(30),
                                   elapse: { time.advance(by: $0) }, close: {})
        case .redis:
            guard let url = TestEnvironment.redisURL else { throw TestSupportError("HOLDFAST_TEST_REDIS_URL not set") }
            let prefix = runPrefix
            let first = try RedisEphemeralStore(url: url, keyPrefix: prefix)
            let second = try RedisEphemeralStore(url: url, keyPrefix: prefix)
            // 4 s rather than a few hundred ms: on a busy 2-core machine running the whole suite in parallel, a
            // run of commands took over 1 s in CI, and the checks before the wait must see the key still alive.
            harness = StoreHarness(store: first, otherNode: second, shortTTL: .seconds(4),
                                   elapse: { try await Task.sleep(for: $0) },
                                   close: { await first.shutdown(); await second.shutdown() })
        }
        do {
            try await body(harness)
        } catch {
            await harness.close()
            throw error
        }
        await harness.close()
    }
}

/// A key no other test uses.
func uniqueKey(_ name: String = #function) -> String {
    "\(name.prefix(while: { $0 != "(" })):\(UUID().uuidString)"
}

/// Runs `operation` and returns the `EphemeralStoreError` it threw (a test failure when it threw none or another).
func expectStoreError<T>(_ code: String, sourceLocation: SourceLocation = #_sourceLocation,
                         _ operation: () async throws -> T) async -> EphemeralStoreError? {
    do {
        let result = try await operation()
        Issue.record("expected \(code), got \(result)", sourceLocation: sourceLocation)
        return nil
    } catch let error as EphemeralStoreError {
        #expect(error.code == code, "\(error)", sourceLocation: sourceLocation)
        return error
    } catch {
        Issue.record("expected \(code), got \(error)", sourceLocation: sourceLocation)
        return nil
    }
}
