@testable import Ephemeral
import Foundation
import TestSupport
import Testing

/// Behaviour that needs a real Redis (HOLDFAST_TEST_REDIS_URL): authentication, a killed connection, the Lua
/// scripts, database selection and the key prefix.
@Suite(.enabled(if: TestEnvironment.redisURL != nil, StoreHarness.redisSkipReason))
struct RedisServerTests {
    private let url = TestEnvironment.redisURL ?? ""

    /// A client on the same server for looking behind the store's back.
    private func rawClient(_ url: String? = nil) throws -> RedisClient {
        RedisClient(configuration: try RedisConfiguration(url: url ?? self.url))
    }

    private func send(_ client: RedisClient, _ arguments: String...) async throws -> RESPValue {
        try await client.send(RedisCommand(arguments[0], arguments.dropFirst().map { Array($0.utf8) }, isIdempotent: false))
    }

    private func urlWith(userinfo: String? = nil, database: Int? = nil) throws -> String {
        let configuration = try RedisConfiguration(url: url)
        let host = configuration.host.contains(":") ? "[\(configuration.host)]" : configuration.host
        return "redis://\(userinfo.map { "\($0)@" } ?? "")\(host):\(configuration.port)/\(database ?? configuration.database)"
    }

    @Test func aWrongPasswordIsARedisError() async throws {
        let admin = try rawClient()
        let user = "holdfast-test-\(UUID().uuidString.prefix(8))"
        _ = try await send(admin, "ACL", "SETUSER", user, "on", ">right-password", "~*", "+@all")
        let wrong = try RedisEphemeralStore(url: try urlWith(userinfo: "\(user):wrong-password"))
        let error = await expectStoreError(EphemeralStoreError.Code.redisError) { try await wrong.ping() }
        #expect(error?.message.contains("WRONGPASS") == true)
        #expect(error?.message.contains("wrong-password") == false)
        let right = try RedisEphemeralStore(url: try urlWith(userinfo: "\(user):right-password"))
        try await right.ping()
        _ = try await send(admin, "ACL", "DELUSER", user)
        await wrong.shutdown()
        await right.shutdown()
        await admin.shutdown()
    }

    /// The store's connection is killed from another connection (`CLIENT KILL ID`, not `TYPE normal`, which would
    /// also kill the connections of the tests running alongside).
    @Test func aKilledConnectionIsReplacedOnTheNextCommand() async throws {
        var configuration = try RedisConfiguration(url: url)
        configuration.maxConnections = 1
        let store = RedisEphemeralStore(configuration: configuration, keyPrefix: StoreHarness.runPrefix)
        let admin = try rawClient()
        let key = uniqueKey()
        try await store.set(key, value: [1], ttl: .seconds(60))
        for round in 0..<2 {
            let id = try await store.client.send(RedisCommand("CLIENT", [Array("ID".utf8)], isIdempotent: true))
            let killed = try await send(admin, "CLIENT", "KILL", "ID", String(id.integerValue ?? -1))
            #expect(killed == .integer(1), "the new form of CLIENT KILL answers how many it killed")
            if round == 0 {
                try await Task.sleep(for: .milliseconds(100))
                // Not idempotent: this works because the dead connection was noticed before anything was sent.
                #expect(try await store.take(key) == [1])
                #expect(try await store.setIfAbsent(key, value: [2], ttl: .seconds(60)))
            } else {
                // At once after the kill: an idempotent command may find out only after sending, and is resent.
                #expect(try await store.get(key) == [2])
            }
            let newID = try await store.client.send(RedisCommand("CLIENT", [Array("ID".utf8)], isIdempotent: true))
            #expect(newID != id, "a new connection")
        }
        await store.shutdown()
        await admin.shutdown()
    }

    /// The `EVAL` fallback for Redis < 6.2 is as single-use as `GETDEL`, across two nodes.
    @Test func theTakeScriptGivesAValueToExactlyOneCaller() async throws {
        let configuration = try RedisConfiguration(url: url)
        let nodes = [RedisEphemeralStore(client: RedisClient(configuration: configuration), keyPrefix: StoreHarness.runPrefix, takeCommand: .script),
                     RedisEphemeralStore(client: RedisClient(configuration: configuration), keyPrefix: StoreHarness.runPrefix, takeCommand: .script)]
        let key = uniqueKey()
        try await nodes[0].set(key, value: Array("challenge".utf8), ttl: .seconds(60))
        let winners = try await withThrowingTaskGroup(of: Int.self) { group in
            for index in 0..<200 {
                let node = nodes[index % 2]
                group.addTask { try await node.take(key) == Array("challenge".utf8) ? 1 : 0 }
            }
            return try await group.reduce(0, +)
        }
        #expect(winners == 1)
        #expect(try await nodes[1].take(key) == nil)
        for node in nodes { await node.shutdown() }
    }

    @Test func aCounterLeftWithoutExpiryGetsItsWindow() async throws {
        let store = try RedisEphemeralStore(url: url, keyPrefix: StoreHarness.runPrefix)
        let admin = try rawClient()
        let key = uniqueKey()
        _ = try await send(admin, "SET", StoreHarness.runPrefix + key, "5")
        #expect(try await store.increment(key, window: .seconds(30)) == 6)
        let ttl = try await send(admin, "PTTL", StoreHarness.runPrefix + key)
        #expect((1...30_000).contains(ttl.integerValue ?? -1))
        await store.shutdown()
        await admin.shutdown()
    }

    /// The window is set by the first increment only: a later one with a longer window leaves the expiry alone
    /// (read from the server; the first window is long enough that no stall of a loaded machine — the flood test
    /// runs alongside — lets it expire before it is read).
    @Test func aLaterIncrementDoesNotExtendTheWindow() async throws {
        let store = try RedisEphemeralStore(url: url, keyPrefix: StoreHarness.runPrefix)
        let admin = try rawClient()
        let key = uniqueKey()
        #expect(try await store.increment(key, window: .seconds(600)) == 1)
        #expect(try await store.increment(key, window: .seconds(3_600)) == 2)
        let ttl = try await send(admin, "PTTL", StoreHarness.runPrefix + key)
        #expect((1...600_000).contains(ttl.integerValue ?? -1), "\(ttl)")
        await store.shutdown()
        await admin.shutdown()
    }

    @Test func keysCarryThePrefixAndLandInTheURLsDatabase() async throws {
        let store = try RedisEphemeralStore(url: try urlWith(database: 7), keyPrefix: "holdfast-prefix-test:")
        let inDatabase7 = try rawClient(try urlWith(database: 7))
        let inDatabase0 = try rawClient(try urlWith(database: 0))
        let key = uniqueKey()
        try await store.set(key, value: Array("x".utf8), ttl: .seconds(30))
        #expect(try await send(inDatabase7, "GET", "holdfast-prefix-test:" + key) == .bulkString(Array("x".utf8)))
        #expect(try await send(inDatabase0, "GET", "holdfast-prefix-test:" + key) == .bulkString(nil))
        try await store.delete(key)
        await store.shutdown()
        await inDatabase7.shutdown()
        await inDatabase0.shutdown()
    }

    /// docs/operations.md "A store that lost its memory": the epoch is written once, as Redis's own time (`TIME`), whatever the
    /// node's clock says; an item issued before it is refused. A Redis that lost its memory (here the store's
    /// epoch and record deleted behind its back, as a restart without persistence or `FLUSHALL` does) is noticed by
    /// the next single-use record on any node: the epoch becomes that moment, the item spent before is refused
    /// rather than accepted again, and items issued after it are spent once.
    @Test func aStoreThatLostItsMemoryRefusesWhatWasIssuedBeforeIt() async throws {
        let prefix = "holdfast-test-epoch-\(UUID().uuidString.prefix(8)):"
        let node1 = try RedisEphemeralStore(url: url, keyPrefix: prefix)
        let node2 = try RedisEphemeralStore(url: url, keyPrefix: prefix)
        let before = Int64(Date().timeIntervalSince1970 * 1000)
        // A node clock far behind Redis's does not date the epoch.
        let start = try await node1.establishEpoch(now: 1_000)
        #expect(start >= before - 2_000 && start <= Int64(Date().timeIntervalSince1970 * 1000) + 2_000, "\(start) vs \(before)")
        #expect(try await node2.establishEpoch(now: start + 5_000) == start)
        let key = uniqueKey()
        #expect(try await node1.spend(key, issuedAt: start, ttl: .seconds(60), now: 0) == .spent)
        #expect(try await node2.spend(key, issuedAt: start, ttl: .seconds(60), now: 0) == .alreadySpent)
        #expect(try await node1.spend(uniqueKey(), issuedAt: start - 1, ttl: .seconds(60), now: 0) == .issuedBeforeEpoch)

        let raw = try rawClient()
        try await Task.sleep(for: .milliseconds(5))
        for name in [RedisEphemeralStore.epochKey, key] { _ = try await send(raw, "DEL", prefix + name) }
        #expect(try await node2.spend(key, issuedAt: start, ttl: .seconds(60), now: 0) == .issuedBeforeEpoch)
        #expect(try await node1.spend(key, issuedAt: start, ttl: .seconds(60), now: 0) == .issuedBeforeEpoch)
        let restart = try await node1.establishEpoch(now: 0)
        #expect(restart > start)
        let fresh = uniqueKey()
        #expect(try await node1.spend(fresh, issuedAt: restart, ttl: .seconds(60), now: 0) == .spent)
        #expect(try await node2.spend(fresh, issuedAt: restart, ttl: .seconds(60), now: 0) == .alreadySpent)
        // The epoch never expires; the record expires with its lifetime.
        #expect(try await send(raw, "PTTL", prefix + RedisEphemeralStore.epochKey).integerValue == -1)
        #expect((try await send(raw, "PTTL", prefix + fresh).integerValue ?? 0) > 0)
        for name in [RedisEphemeralStore.epochKey, RedisEphemeralStore.runIDKey, key, fresh] { _ = try await send(raw, "DEL", prefix + name) }
        await raw.shutdown()
        await node1.shutdown()
        await node2.shutdown()
    }
}

extension RESPValue {
    var integerValue: Int64? {
        if case .integer(let value) = self { value } else { nil }
    }
}
