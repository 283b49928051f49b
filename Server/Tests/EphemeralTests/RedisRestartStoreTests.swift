@testable import Ephemeral
import Foundation
import TestSupport
import Testing

/// docs/operations.md "A store that lost its memory" and "maxmemory-policy", on a Redis of the test's own (`TestRedisServer`),
/// which these tests snapshot, restart and reconfigure — never the shared one.
@Suite(.enabled(if: TestRedisServer.isAvailable, Comment(rawValue: TestRedisServer.skipReason)))
struct RedisRestartStoreTests {
    static func milliseconds(_ date: Date = Date()) -> Int64 { Int64(date.timeIntervalSince1970 * 1000) }

    /// A Redis started again from a snapshot still holds the epoch it had, and has forgotten what was spent after
    /// the snapshot. Each node's new connection reads the new `run_id`, the first single-use record after the
    /// restart sets a new epoch, and everything issued before it is refused — spent before the snapshot or after;
    /// an item issued after it is spent once, on either node.
    @Test func aRedisStartedAgainFromAnOldSnapshotIsAReset() async throws {
        let redis = try await TestRedisServer()
        defer { Task { await redis.remove() } }
        let node1 = try RedisEphemeralStore(url: redis.url)
        let node2 = try RedisEphemeralStore(url: redis.url)
        let epoch = try await node1.establishEpoch(now: 0)
        let issued = Self.milliseconds()
        let beforeSnapshot = uniqueKey(), afterSnapshot = uniqueKey()
        #expect(try await node1.spend(beforeSnapshot, issuedAt: issued, ttl: .seconds(60), now: 0) == .spent)
        try await redis.save()
        #expect(try await node2.spend(afterSnapshot, issuedAt: issued, ttl: .seconds(60), now: 0) == .spent)
        let oldRunID = try await redis.runID()
        try await Task.sleep(for: .milliseconds(5))
        try await redis.restart()
        #expect(try await redis.runID() != oldRunID)

        #expect(try await node2.spend(afterSnapshot, issuedAt: issued, ttl: .seconds(60), now: 0) == .issuedBeforeEpoch)
        #expect(try await node1.spend(afterSnapshot, issuedAt: issued, ttl: .seconds(60), now: 0) == .issuedBeforeEpoch)
        #expect(try await node1.spend(beforeSnapshot, issuedAt: issued, ttl: .seconds(60), now: 0) == .issuedBeforeEpoch)
        let reset = try await node2.establishEpoch(now: 0)
        #expect(reset > epoch && reset > issued)
        // Noticed once: the other node's connections see the same server, and keep the epoch.
        #expect(try await node1.establishEpoch(now: 0) == reset)
        let fresh = uniqueKey()
        #expect(try await node1.spend(fresh, issuedAt: Self.milliseconds(), ttl: .seconds(60), now: 0) == .spent)
        #expect(try await node2.spend(fresh, issuedAt: Self.milliseconds(), ttl: .seconds(60), now: 0) == .alreadySpent)
        await node1.shutdown()
        await node2.shutdown()
    }

    /// Restarted from a snapshot made after the epoch key was deleted (an empty Redis): the missing epoch alone is
    /// noticed, as before.
    @Test func aRedisRestartedEmptyIsAResetToo() async throws {
        let redis = try await TestRedisServer()
        defer { Task { await redis.remove() } }
        let node = try RedisEphemeralStore(url: redis.url)
        let epoch = try await node.establishEpoch(now: 0)
        let issued = Self.milliseconds()
        let key = uniqueKey()
        #expect(try await node.spend(key, issuedAt: issued, ttl: .seconds(60), now: 0) == .spent)
        try await Task.sleep(for: .milliseconds(5))
        try await redis.restart()
        #expect(try await node.spend(key, issuedAt: issued, ttl: .seconds(60), now: 0) == .issuedBeforeEpoch)
        #expect(try await node.establishEpoch(now: 0) > epoch)
        await node.shutdown()
    }

    /// The clock-skew allowance: an item dated less than the allowance after the epoch — by a clock ahead of
    /// Redis's — is refused as one issued before it; dated at the allowance or later, it is spent. Without an
    /// allowance only the epoch counts.
    @Test func anItemIssuedWithinTheClockSkewAllowanceOfTheEpochIsRefused() async throws {
        let redis = try await TestRedisServer()
        defer { Task { await redis.remove() } }
        let allowing = try RedisEphemeralStore(url: redis.url, clockSkewAllowance: .seconds(30))
        let strict = try RedisEphemeralStore(url: redis.url)
        #expect(allowing.clockSkewAllowance == 30_000 && strict.clockSkewAllowance == 0)
        let epoch = try await allowing.establishEpoch(now: 0)
        #expect(try await allowing.spend(uniqueKey(), issuedAt: epoch + 29_999, ttl: .seconds(60), now: 0) == .issuedBeforeEpoch)
        #expect(try await allowing.spend(uniqueKey(), issuedAt: epoch + 30_000, ttl: .seconds(60), now: 0) == .spent)
        #expect(try await strict.spend(uniqueKey(), issuedAt: epoch, ttl: .seconds(60), now: 0) == .spent)
        #expect(try await strict.spend(uniqueKey(), issuedAt: epoch - 1, ttl: .seconds(60), now: 0) == .issuedBeforeEpoch)
        await allowing.shutdown()
        await strict.shutdown()
    }

    /// `maxmemory-policy`: `noeviction` accepted; every other policy refused, with why; a user without `CONFIG`
    /// gets `.unreadable`.
    @Test func theEvictionPolicyIsReadAndJudged() async throws {
        let redis = try await TestRedisServer()
        defer { Task { await redis.remove() } }
        let store = try RedisEphemeralStore(url: redis.url)
        for policy in RedisEvictionPolicy.allCases {
            try await redis.command("CONFIG", "SET", "maxmemory-policy", policy.rawValue)
            let check = try await store.evictionPolicy()
            if policy == .noEviction {
                #expect(check == .accepted)
            } else {
                guard case .refused(let name, let reason) = check else {
                    Issue.record("\(policy): \(check)")
                    continue
                }
                #expect(name == policy.rawValue)
                #expect(reason.contains(policy.rawValue.hasPrefix("allkeys") ? "any key" : "expiry"), "\(reason)")
            }
        }
        try await redis.command("ACL", "SETUSER", "limited", "on", ">secret", "~*", "+@all", "-config")
        let limited = try RedisEphemeralStore(url: "redis://limited:secret@127.0.0.1:\(redis.port)")
        guard case .unreadable(let message) = try await limited.evictionPolicy() else {
            Issue.record("CONFIG was not refused")
            return
        }
        #expect(message.contains("NOPERM"), "\(message)")
        await store.shutdown()
        await limited.shutdown()
    }

    @Test func theRunIDIsReadFromInfo() {
        let info = "# Server\r\nredis_version:7.0.15\r\nrun_id:0123456789abcdef0123456789abcdef01234567\r\ntcp_port:6379\r\n"
        #expect(RedisConnection.runID(inInfo: info) == "0123456789abcdef0123456789abcdef01234567")
        #expect(RedisConnection.runID(inInfo: "# Server\r\nredis_version:7.0.15\r\n") == nil)
    }
}
