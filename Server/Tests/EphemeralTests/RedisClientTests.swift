@testable import Ephemeral
import NIOCore
import NIOPosix
import Testing

/// The RESP client's failure handling, against scripted stand-in servers on 127.0.0.1 (no Redis needed).
@Suite struct RedisClientTests {
    /// Timeouts far above any answer's time, so that only the tests about timeouts meet one: under the whole suite's
    /// load (a flood test and a thousand connections on two cores) a closed connection once took over 2 s to be seen.
    private func store(_ url: String, commandTimeout: Duration = .seconds(30),
                       connectTimeout: Duration = .seconds(30)) throws -> RedisEphemeralStore {
        var configuration = try RedisConfiguration(url: url)
        configuration.readsServerRunID = false
        configuration.commandTimeout = commandTimeout
        configuration.connectTimeout = connectTimeout
        return RedisEphemeralStore(configuration: configuration, keyPrefix: "t:")
    }

    /// A port on 127.0.0.1 that nothing listens on: bound, then closed.
    private func closedPort() async throws -> Int {
        let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .bind(host: "127.0.0.1", port: 0).get()
        let port = channel.localAddress?.port ?? 1
        try await channel.close()
        return port
    }

    @Test func connectingToAClosedPortFailsQuicklyAsUnavailable() async throws {
        // A refused connection is reported at once, not after the connect timeout: with a 120 s timeout, both
        // commands fail well before it (the bound is loose so that a loaded machine does not fail the test: two
        // refusals took 19.8 s once while two builds shared the 2 cores).
        let store = try store("redis://127.0.0.1:\(try await closedPort())", connectTimeout: .seconds(120))
        let started = ContinuousClock.now
        _ = await expectStoreError(EphemeralStoreError.Code.redisUnavailable) { try await store.ping() }
        _ = await expectStoreError(EphemeralStoreError.Code.redisUnavailable) { try await store.take("k") }
        #expect(ContinuousClock.now - started < .seconds(60))
        await store.shutdown()
    }

    @Test func aServerThatNeverAnswersTimesOut() async throws {
        let server = try await FakeRedisServer.start { _, _ in .silence }
        let store = try store(server.url, commandTimeout: .milliseconds(300))
        let started = ContinuousClock.now
        _ = await expectStoreError(EphemeralStoreError.Code.redisTimeout) { try await store.get("k") }
        let elapsed = ContinuousClock.now - started
        // Not before the timeout; and it does end (the upper bound only rules out waiting forever).
        // (once 15 s under the whole suite's load on two cores).
        #expect(elapsed >= .milliseconds(250) && elapsed < .seconds(60))
        await store.shutdown()
        await server.stop()
    }

    @Test func aMalformedReplyIsAProtocolError() async throws {
        let server = try await FakeRedisServer.start { _, _ in .raw(Array("$3\r\nabcXY".utf8)) }
        let store = try store(server.url)
        _ = await expectStoreError(EphemeralStoreError.Code.redisProtocol) { try await store.get("k") }
        await store.shutdown()
        await server.stop()
    }

    @Test func anUnexpectedReplyTypeIsAProtocolError() async throws {
        let server = try await FakeRedisServer.start { _, _ in .reply(.integer(7)) }
        let store = try store(server.url)
        _ = await expectStoreError(EphemeralStoreError.Code.redisProtocol) { try await store.take("k") }
        await store.shutdown()
        await server.stop()
    }

    @Test func anErrorReplyCarriesTheServersMessage() async throws {
        let server = try await FakeRedisServer.start { _, _ in .reply(.error("MISCONF cannot persist")) }
        let store = try store(server.url)
        let error = await expectStoreError(EphemeralStoreError.Code.redisError) {
            try await store.set("k", value: [1], ttl: .seconds(1))
        }
        #expect(error?.message == "MISCONF cannot persist")
        await store.shutdown()
        await server.stop()
    }

    @Test func aRefusedPasswordIsARedisError() async throws {
        let server = try await FakeRedisServer.start { command, _ in
            command.first == "AUTH" ? .reply(.error("WRONGPASS invalid username-password pair or user is disabled."))
                                    : .reply(.simpleString("PONG"))
        }
        let store = try store("redis://app:wrong@127.0.0.1:\(server.port)")
        let error = await expectStoreError(EphemeralStoreError.Code.redisError) { try await store.ping() }
        #expect(error?.message.contains("WRONGPASS") == true)
        #expect(error?.message.contains("wrong") == false, "the password is not echoed")
        #expect(server.received.first == ["AUTH", "app", "wrong"])
        await store.shutdown()
        await server.stop()
    }

    @Test func theDatabaseIsSelectedOnEachNewConnection() async throws {
        let server = try await FakeRedisServer.start { command, _ in
            command.first == "PING" ? .reply(.simpleString("PONG")) : .reply(.simpleString("OK"))
        }
        let store = try store("redis://:pw@127.0.0.1:\(server.port)/5")
        try await store.ping()
        #expect(server.received == [["AUTH", "pw"], ["SELECT", "5"], ["PING"]])
        await store.shutdown()
        await server.stop()
    }

    /// Redis < 6.2 answers `ERR unknown command` to GETDEL (running nothing); take then uses the Lua script, for good.
    @Test func takeFallsBackToAScriptWhenGETDELIsUnknown() async throws {
        let server = try await FakeRedisServer.start { command, _ in
            switch command.first {
            case "GETDEL": .reply(.error("ERR unknown command 'GETDEL', with args beginning with: 't:k' "))
            case "EVAL": .reply(.bulkString(Array("v".utf8)))
            default: .reply(.error("ERR unexpected"))
            }
        }
        let store = try store(server.url)
        #expect(try await store.take("k") == Array("v".utf8))
        #expect(try await store.take("k") == Array("v".utf8))
        #expect(server.received.map { $0.first ?? "" } == ["GETDEL", "EVAL", "EVAL"])
        #expect(server.received.last == ["EVAL", RedisEphemeralStore.takeScript, "1", "t:k"])
        await store.shutdown()
        await server.stop()
    }

    /// Redis at `maxmemory` with `noeviction` answers writes with an `OOM` error: that is a full store, as the
    /// in-memory store's limit is; other error replies stay Redis errors.
    @Test func anOOMReplyIsAFullStore() async throws {
        let server = try await FakeRedisServer.start { command, _ in
            command.first == "SET" ? .reply(.error("OOM command not allowed when used memory > 'maxmemory'."))
                : .reply(.error("ERR something else"))
        }
        let store = try store(server.url)
        _ = await expectStoreError(EphemeralStoreError.Code.storeFull) {
            try await store.setIfAbsent("k", value: [1], ttl: .seconds(1))
        }
        _ = await expectStoreError(EphemeralStoreError.Code.redisError) { try await store.get("k") }
        await store.shutdown()
        await server.stop()
    }

    /// Redis reading its dataset after a start answers every command `-LOADING …` and runs none: that is Redis
    /// unavailable, as a Redis that is down is (the server answers `503 EPHEMERAL_STORE_UNAVAILABLE`).
    @Test func aLoadingReplyIsRedisUnavailable() async throws {
        let server = try await FakeRedisServer.start { command, _ in
            command.first == "GET" ? .reply(.error("ERR something else"))
                : .reply(.error("LOADING Redis is loading the dataset in memory"))
        }
        let store = try store(server.url)
        _ = await expectStoreError(EphemeralStoreError.Code.redisUnavailable) {
            try await store.setIfAbsent("k", value: [1], ttl: .seconds(1))
        }
        _ = await expectStoreError(EphemeralStoreError.Code.redisUnavailable) { try await store.take("k") }
        _ = await expectStoreError(EphemeralStoreError.Code.redisError) { try await store.get("k") }
        await store.shutdown()
        await server.stop()
    }

    /// GETDEL may have run before the connection dropped: it is not sent again (that would lose the value).
    @Test func aCommandThatMayHaveRunIsNotResent() async throws {
        let server = try await FakeRedisServer.start { _, _ in .close }
        let store = try store(server.url)
        _ = await expectStoreError(EphemeralStoreError.Code.redisUnavailable) { try await store.take("k") }
        _ = await expectStoreError(EphemeralStoreError.Code.redisUnavailable) {
            try await store.setIfAbsent("k", value: [1], ttl: .seconds(1))
        }
        _ = await expectStoreError(EphemeralStoreError.Code.redisUnavailable) {
            try await store.increment("k", window: .seconds(1))
        }
        #expect(server.received.map { $0.first ?? "" } == ["GETDEL", "SET", "EVAL"])
        await store.shutdown()
        await server.stop()
    }

    /// GET and SET (without NX) are idempotent: sent once more on a new connection after the first one dropped.
    @Test func anIdempotentCommandIsResentOnceOnANewConnection() async throws {
        let server = try await FakeRedisServer.start { command, seen in
            switch (command.first, seen) {
            case ("GET", 1): .close
            case ("GET", _): .reply(.bulkString([42]))
            case ("PING", _): .close
            default: .reply(.error("ERR unexpected"))
            }
        }
        let store = try store(server.url)
        #expect(try await store.get("k") == [42])
        #expect(server.received.filter { $0.first == "GET" }.count == 2)
        // Bounded: PING fails twice (the first try and one retry) and then gives up.
        _ = await expectStoreError(EphemeralStoreError.Code.redisUnavailable) { try await store.ping() }
        #expect(server.received.filter { $0.first == "PING" }.count == 2)
        await store.shutdown()
        await server.stop()
    }

    @Test func commandsAfterShutdownFail() async throws {
        let server = try await FakeRedisServer.start { _, _ in .reply(.simpleString("PONG")) }
        let store = try store(server.url)
        try await store.ping()
        await store.shutdown()
        _ = await expectStoreError(EphemeralStoreError.Code.redisUnavailable) { try await store.ping() }
        await server.stop()
    }

    @Test func theLineOfWaitingCommandsIsBounded() async throws {
        let server = try await FakeRedisServer.start { _, _ in .silence }
        var configuration = try RedisConfiguration(url: server.url)
        configuration.readsServerRunID = false
        configuration.maxConnections = 1
        configuration.maxWaitingCommands = 0
        configuration.commandTimeout = .seconds(5)
        let store = RedisEphemeralStore(configuration: configuration)
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                _ = await expectStoreError(EphemeralStoreError.Code.redisTimeout) { try await store.get("first") }
            }
            // The second command is sent once the first holds the only connection (the server has seen it) and
            // long before the first times out, however slowly a loaded machine runs the two tasks.
            while !server.received.contains(where: { $0.first == "GET" }) { try await Task.sleep(for: .milliseconds(10)) }
            let error = await expectStoreError(EphemeralStoreError.Code.redisUnavailable) { try await store.get("second") }
            #expect(error?.message.contains("wait") == true)
            try await group.waitForAll()
        }
        await store.shutdown()
        await server.stop()
    }

    @Test func commandsBeyondThePoolWaitForAFreeConnection() async throws {
        let server = try await FakeRedisServer.start { _, _ in .reply(.simpleString("PONG")) }
        var configuration = try RedisConfiguration(url: server.url)
        configuration.readsServerRunID = false
        configuration.maxConnections = 2
        let client = RedisClient(configuration: configuration)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<50 {
                group.addTask {
                    let reply = try await client.send(RedisCommand("PING", isIdempotent: true))
                    #expect(reply == .simpleString("PONG"))
                }
            }
            try await group.waitForAll()
        }
        #expect(server.received.count == 50)
        await client.shutdown()
        await server.stop()
    }
}
