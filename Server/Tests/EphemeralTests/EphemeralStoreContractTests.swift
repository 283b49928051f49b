import Ephemeral
import TestSupport
import Testing

/// The `EphemeralStore` contract, one test body run against every backend: memory always, Redis when
/// HOLDFAST_TEST_REDIS_URL is set (without it, `redisVariantsRun` is reported as skipped with the reason).
@Suite struct EphemeralStoreContractTests {
    @Test(.enabled(if: TestEnvironment.redisURL != nil, StoreHarness.redisSkipReason))
    func redisVariantsRun() {
        #expect(StoreKind.available.contains(.redis))
    }

    @Test(arguments: StoreKind.available)
    func setThenGetReturnsTheValue(_ kind: StoreKind) async throws {
        try await StoreHarness.with(kind) { (harness: StoreHarness) async throws in
            let key = uniqueKey()
            #expect(try await harness.store.get(key) == nil)
            try await harness.store.set(key, value: [1, 2, 3, 0, 255], ttl: .seconds(60))
            #expect(try await harness.store.get(key) == [1, 2, 3, 0, 255])
            #expect(try await harness.otherNode.get(key) == [1, 2, 3, 0, 255])
            try await harness.store.set(key, value: [], ttl: .seconds(60))
            #expect(try await harness.store.get(key) == [])
        }
    }

    @Test(arguments: StoreKind.available)
    func setIfAbsentStoresOnlyTheFirstTime(_ kind: StoreKind) async throws {
        try await StoreHarness.with(kind) { (harness: StoreHarness) async throws in
            let key = uniqueKey()
            #expect(try await harness.store.setIfAbsent(key, value: Array("first".utf8), ttl: .seconds(60)))
            #expect(try await !harness.otherNode.setIfAbsent(key, value: Array("second".utf8), ttl: .seconds(60)))
            #expect(try await harness.store.get(key) == Array("first".utf8))
        }
    }

    @Test(arguments: StoreKind.available)
    func takeReturnsTheValueOnceThenNil(_ kind: StoreKind) async throws {
        try await StoreHarness.with(kind) { (harness: StoreHarness) async throws in
            let key = uniqueKey()
            try await harness.store.set(key, value: Array("challenge".utf8), ttl: .seconds(60))
            #expect(try await harness.otherNode.take(key) == Array("challenge".utf8))
            #expect(try await harness.store.take(key) == nil)
            #expect(try await harness.store.get(key) == nil)
            #expect(try await harness.store.take(uniqueKey()) == nil)
        }
    }

    @Test(arguments: StoreKind.available)
    func entriesExpireAfterTheirTTL(_ kind: StoreKind) async throws {
        try await StoreHarness.with(kind) { (harness: StoreHarness) async throws in
            let (key, (guardedStored, keptBeforeExpiry)) = try await harness.promptly { key in
                try await harness.store.set(key + ":kept", value: [1], ttl: harness.shortTTL)
                try await harness.store.set(key + ":taken", value: [2], ttl: harness.shortTTL)
                let guardedStored = try await harness.store.setIfAbsent(key + ":guarded", value: [3], ttl: harness.shortTTL)
                return (guardedStored, try await harness.store.get(key + ":kept"))
            }
            #expect(guardedStored)
            #expect(keptBeforeExpiry == [1])
            try await harness.elapse(harness.shortTTL + harness.shortTTL / 2)
            #expect(try await harness.store.get(key + ":kept") == nil)
            #expect(try await harness.store.take(key + ":taken") == nil)
            // An expired key is absent again: the next setIfAbsent stores.
            #expect(try await harness.store.setIfAbsent(key + ":guarded", value: [4], ttl: .seconds(60)))
            #expect(try await harness.store.get(key + ":guarded") == [4])
        }
    }

    @Test(arguments: StoreKind.available)
    func incrementCountsAcrossNodes(_ kind: StoreKind) async throws {
        try await StoreHarness.with(kind) { (harness: StoreHarness) async throws in
            let key = uniqueKey()
            #expect(try await harness.store.increment(key, window: .seconds(60)) == 1)
            #expect(try await harness.otherNode.increment(key, window: .seconds(60)) == 2)
            #expect(try await harness.store.increment(key, window: .seconds(60)) == 3)
            #expect(try await harness.store.get(key) == Array("3".utf8))
            #expect(try await harness.otherNode.get(key) == Array("3".utf8))
        }
    }

    /// The window runs from the first increment; later increments, even with a longer window, do not extend it.
    @Test(arguments: StoreKind.available)
    func incrementWindowRunsFromTheFirstIncrement(_ kind: StoreKind) async throws {
        try await StoreHarness.with(kind) { (harness: StoreHarness) async throws in
            let (key, counts) = try await harness.promptly { key in
                [try await harness.store.increment(key, window: harness.shortTTL),
                 try await harness.otherNode.increment(key, window: .seconds(60))]
            }
            #expect(counts == [1, 2])
            try await harness.elapse(harness.shortTTL + harness.shortTTL / 2)
            #expect(try await harness.store.increment(key, window: harness.shortTTL) == 1)
        }
    }

    @Test(arguments: StoreKind.available)
    func incrementOfANonIntegerValueFails(_ kind: StoreKind) async throws {
        try await StoreHarness.with(kind) { (harness: StoreHarness) async throws in
            let key = uniqueKey()
            try await harness.store.set(key, value: Array("not a number".utf8), ttl: .seconds(60))
            _ = await expectStoreError(EphemeralStoreError.Code.valueNotInteger) {
                try await harness.store.increment(key, window: .seconds(60))
            }
        }
    }

    @Test(arguments: StoreKind.available)
    func deleteRemovesTheKeyAndTellsWhetherItWasThere(_ kind: StoreKind) async throws {
        try await StoreHarness.with(kind) { (harness: StoreHarness) async throws in
            let key = uniqueKey()
            try await harness.store.set(key, value: [9], ttl: .seconds(60))
            #expect(try await harness.otherNode.delete(key))
            #expect(try await harness.store.get(key) == nil)
            #expect(try await !harness.store.delete(key))
        }
    }

    @Test(arguments: StoreKind.available)
    func pingAnswersAndBackendIsNamed(_ kind: StoreKind) async throws {
        try await StoreHarness.with(kind) { (harness: StoreHarness) async throws in
            try await harness.store.ping()
            #expect(harness.store.backendName == kind.rawValue)
        }
    }

    @Test(arguments: StoreKind.available)
    func aLifetimeMustBePositive(_ kind: StoreKind) async throws {
        try await StoreHarness.with(kind) { (harness: StoreHarness) async throws in
            let key = uniqueKey()
            _ = await expectStoreError(EphemeralStoreError.Code.invalidTTL) {
                try await harness.store.set(key, value: [1], ttl: .zero)
            }
            _ = await expectStoreError(EphemeralStoreError.Code.invalidTTL) {
                try await harness.store.setIfAbsent(key, value: [1], ttl: .milliseconds(-5))
            }
            _ = await expectStoreError(EphemeralStoreError.Code.invalidTTL) {
                try await harness.store.increment(key, window: .zero)
            }
            // A sub-millisecond lifetime is rounded up, not refused.
            try await harness.store.set(key, value: [1], ttl: .microseconds(10))
        }
    }

    /// Single use across nodes: of 200 concurrent `take`s of one key (split over two nodes), exactly one wins.
    @Test(arguments: StoreKind.available)
    func concurrentTakesGiveTheValueToExactlyOneCaller(_ kind: StoreKind) async throws {
        try await StoreHarness.with(kind) { (harness: StoreHarness) async throws in
            for _ in 0..<3 {
                let key = uniqueKey()
                try await harness.store.set(key, value: Array("jti".utf8), ttl: .seconds(60))
                let winners = try await withThrowingTaskGroup(of: Int.self) { group in
                    for index in 0..<200 {
                        let node = index.isMultiple(of: 2) ? harness.store : harness.otherNode
                        group.addTask { try await node.take(key) == Array("jti".utf8) ? 1 : 0 }
                    }
                    return try await group.reduce(0, +)
                }
                #expect(winners == 1)
            }
        }
    }

    /// Replay detection across nodes: of 200 concurrent `setIfAbsent`s of one key, exactly one stores.
    @Test(arguments: StoreKind.available)
    func concurrentSetIfAbsentStoresExactlyOnce(_ kind: StoreKind) async throws {
        try await StoreHarness.with(kind) { (harness: StoreHarness) async throws in
            for _ in 0..<3 {
                let key = uniqueKey()
                let server = try await harness.redisRunID()
                let stored = try await withThrowingTaskGroup(of: Int.self) { group in
                    for index in 0..<200 {
                        let node = index.isMultiple(of: 2) ? harness.store : harness.otherNode
                        group.addTask {
                            try await node.setIfAbsent(key, value: Array(String(index).utf8), ttl: .seconds(3_600)) ? 1 : 0
                        }
                    }
                    return try await group.reduce(0, +)
                }
                #expect(stored == 1)
                // A second store can only come from the key having vanished: say whether Redis restarted meanwhile
                // (another process's test run stopping a shared server) or not (a fault of the store).
                if stored != 1 {
                    #expect(try await harness.redisRunID() == server, "Redis restarted during the test and lost its keys")
                }
            }
        }
    }
}
