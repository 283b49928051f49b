import Ephemeral
import Testing

@Suite struct InMemoryEphemeralStoreTests {
    @Test func aFullStoreRefusesNewKeysWithAClearError() async throws {
        let store = InMemoryEphemeralStore(limits: .init(maxEntries: 3), timeSource: ManualTime().source)
        for index in 0..<3 { try await store.set("k\(index)", value: [1], ttl: .seconds(60)) }
        let error = await expectStoreError(EphemeralStoreError.Code.storeFull) {
            try await store.set("k3", value: [1], ttl: .seconds(60))
        }
        #expect(error?.message.contains("3") == true)
        _ = await expectStoreError(EphemeralStoreError.Code.storeFull) {
            try await store.increment("counter", window: .seconds(60))
        }
        // Replacing a key that is there needs no room.
        try await store.set("k0", value: [2], ttl: .seconds(60))
        #expect(await store.get("k0") == [2])
    }

    @Test func expiredEntriesAreSweptToMakeRoom() async throws {
        let time = ManualTime()
        let store = InMemoryEphemeralStore(limits: .init(maxEntries: 3, sweepInterval: .seconds(3600)), timeSource: time.source)
        for index in 0..<3 { try await store.set("k\(index)", value: [1], ttl: .seconds(10)) }
        time.advance(by: .seconds(11))
        #expect(try await store.setIfAbsent("new", value: [1], ttl: .seconds(10)))
        #expect(await store.storedEntryCount == 1)
    }

    @Test func expiredEntriesNeverReadAgainAreSweptPeriodically() async throws {
        let time = ManualTime()
        let store = InMemoryEphemeralStore(limits: .init(sweepInterval: .seconds(5)), timeSource: time.source)
        for index in 0..<100 { try await store.set("k\(index)", value: [1], ttl: .seconds(1)) }
        #expect(await store.storedEntryCount == 100)
        time.advance(by: .seconds(6))
        try await store.set("trigger", value: [1], ttl: .seconds(60))
        #expect(await store.storedEntryCount == 1)
    }

    @Test func aValueLargerThanTheLimitIsRefused() async throws {
        let store = InMemoryEphemeralStore(limits: .init(maxValueBytes: 16))
        try await store.set("ok", value: [UInt8](repeating: 7, count: 16), ttl: .seconds(1))
        _ = await expectStoreError(EphemeralStoreError.Code.valueTooLarge) {
            try await store.setIfAbsent("big", value: [UInt8](repeating: 7, count: 17), ttl: .seconds(1))
        }
    }

    @Test func anEntryExpiresExactlyAtItsTTL() async throws {
        let time = ManualTime()
        let store = InMemoryEphemeralStore(timeSource: time.source)
        try await store.set("k", value: [1], ttl: .milliseconds(100))
        time.advance(by: .milliseconds(99))
        #expect(await store.get("k") == [1])
        time.advance(by: .milliseconds(1))
        #expect(await store.get("k") == nil)
    }

    @Test func aCounterThatWouldOverflowFails() async throws {
        let store = InMemoryEphemeralStore()
        try await store.set("c", value: Array(String(Int64.max).utf8), ttl: .seconds(60))
        _ = await expectStoreError(EphemeralStoreError.Code.valueNotInteger) {
            try await store.increment("c", window: .seconds(60))
        }
    }

    /// docs/operations.md "A store that lost its memory": the epoch is the start of the process that holds the memory; what was issued before it is
    /// refused, what was issued after is spent once. A store without an epoch (a tool, a test) refuses nothing for
    /// its age.
    @Test func anItemIssuedBeforeTheEpochIsRefused() async throws {
        let store = InMemoryEphemeralStore(timeSource: ManualTime().source)
        #expect(try await store.spend("old", issuedAt: 0, ttl: .seconds(60), now: 500) == .spent)
        #expect(await store.establishEpoch(now: 1_000) == 1_000)
        #expect(await store.establishEpoch(now: 2_000) == 1_000)
        #expect(try await store.spend("a", issuedAt: 999, ttl: .seconds(60), now: 1_500) == .issuedBeforeEpoch)
        #expect(try await store.spend("b", issuedAt: 1_000, ttl: .seconds(60), now: 1_500) == .spent)
        #expect(try await store.spend("b", issuedAt: 1_000, ttl: .seconds(60), now: 1_600) == .alreadySpent)
    }
}
