import Logging
import NIOCore
import NIOPosix

/// The `EphemeralStore` for several server nodes (DESIGN.md §4): Redis keeps the state, so single use holds
/// across nodes — `take` is `GETDEL`, `setIfAbsent` is `SET NX PX`, both atomic on the server.
///
/// Keys are namespaced with `keyPrefix` (default `holdfast:`) so that Redis can be shared with other programs.
///
/// `GETDEL` needs Redis ≥ 6.2. On an older server (which answers `ERR unknown command` and so did not run
/// anything) `take` falls back, for good, to an `EVAL` of a Lua script that does `GET` then `DEL` — atomic too,
/// as Redis runs a script without interleaving other commands. `increment` is always a script (`INCR`, then
/// `PEXPIRE` when the key has no expiry), because `INCR` and `PEXPIRE` sent separately could leave a counter
/// that never expires if the connection broke between them. Scripts need Redis ≥ 2.6.
public final class RedisEphemeralStore: EphemeralStore {
    public let backendName = "redis"
    public let keyPrefix: String
    public let client: RedisClient
    /// How far ahead of Redis's clock the clocks that date single-use items (the nodes', the devices' proofs) may
    /// be: an item issued less than this after the store's epoch is refused too (docs/operations.md "A store that lost its
    /// memory"). Whole milliseconds.
    public let clockSkewAllowance: Int64
    private let features: Features
    private let logger: Logger

    /// How `take` is sent; `.script` is forced by the tests to check the fallback on a new server.
    enum TakeCommand: Sendable {
        case getdelWithFallback
        case script
    }

    public convenience init(url: String, keyPrefix: String = "holdfast:", clockSkewAllowance: Duration = .zero,
                            eventLoopGroup: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton,
                            logger: Logger = Logger(label: "holdfast.ephemeral.redis")) throws(EphemeralStoreError) {
        self.init(configuration: try RedisConfiguration(url: url), keyPrefix: keyPrefix,
                  clockSkewAllowance: clockSkewAllowance, eventLoopGroup: eventLoopGroup, logger: logger)
    }

    public convenience init(configuration: RedisConfiguration, keyPrefix: String = "holdfast:",
                            clockSkewAllowance: Duration = .zero,
                            eventLoopGroup: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton,
                            logger: Logger = Logger(label: "holdfast.ephemeral.redis")) {
        self.init(client: RedisClient(configuration: configuration, eventLoopGroup: eventLoopGroup, logger: logger),
                  keyPrefix: keyPrefix, takeCommand: .getdelWithFallback, clockSkewAllowance: clockSkewAllowance,
                  logger: logger)
    }

    init(client: RedisClient, keyPrefix: String, takeCommand: TakeCommand, clockSkewAllowance: Duration = .zero,
         logger: Logger = Logger(label: "holdfast.ephemeral.redis")) {
        self.client = client
        self.keyPrefix = keyPrefix
        self.clockSkewAllowance = clockSkewAllowance <= .zero ? 0 : (clockSkewAllowance.ephemeralMilliseconds ?? 0)
        self.features = Features(useScriptForTake: takeCommand == .script)
        self.logger = logger
    }

    public func setIfAbsent(_ key: String, value: [UInt8], ttl: Duration) async throws -> Bool {
        let milliseconds = try ttl.ephemeralLifetime("ttl")
        let reply = try await client.send(RedisCommand("SET", [redisKey(key), value, Array("NX".utf8), Array("PX".utf8),
                                                               decimal(milliseconds)], isIdempotent: false))
        switch reply {
        case .simpleString("OK"): return true
        case .bulkString(nil): return false
        default: throw unexpected(reply, to: "SET NX")
        }
    }

    public func set(_ key: String, value: [UInt8], ttl: Duration) async throws {
        let milliseconds = try ttl.ephemeralLifetime("ttl")
        let reply = try await client.send(RedisCommand("SET", [redisKey(key), value, Array("PX".utf8),
                                                               decimal(milliseconds)], isIdempotent: true))
        guard reply == .simpleString("OK") else { throw unexpected(reply, to: "SET") }
    }

    public func take(_ key: String) async throws -> [UInt8]? {
        let reply: RESPValue
        if await features.useScriptForTake {
            reply = try await client.send(Self.takeScript(redisKey(key)))
        } else {
            let getdel = await sendAllowingUnknownCommand(RedisCommand("GETDEL", [redisKey(key)], isIdempotent: false))
            switch getdel {
            case .success(let value):
                reply = value
            case .failure(let error) where Self.isUnknownCommand(error):
                await features.getdelIsUnknown()
                reply = try await client.send(Self.takeScript(redisKey(key)))
            case .failure(let error):
                throw error
            }
        }
        return try bulk(reply, from: "GETDEL")
    }

    public func get(_ key: String) async throws -> [UInt8]? {
        try bulk(try await client.send(RedisCommand("GET", [redisKey(key)], isIdempotent: true)), from: "GET")
    }

    @discardableResult
    public func delete(_ key: String) async throws -> Bool {
        let reply = try await client.send(RedisCommand("DEL", [redisKey(key)], isIdempotent: false))
        guard case .integer(let count) = reply else { throw unexpected(reply, to: "DEL") }
        return count > 0
    }

    public func increment(_ key: String, window: Duration) async throws -> Int64 {
        let milliseconds = try window.ephemeralLifetime("window")
        let result = await sendAllowingUnknownCommand(RedisCommand("EVAL", [Array(Self.incrementScript.utf8), Array("1".utf8),
                                                                           redisKey(key), decimal(milliseconds)],
                                                                  isIdempotent: false))
        let reply: RESPValue
        switch result {
        case .success(let value):
            reply = value
        case .failure(let error) where error.code == EphemeralStoreError.Code.redisError
                                       && error.message.contains("not an integer"):
            throw EphemeralStoreError(code: EphemeralStoreError.Code.valueNotInteger,
                                      message: "the value of '\(key)' is not an integer or would overflow (\(error.message))")
        case .failure(let error):
            throw error
        }
        guard case .integer(let count) = reply else { throw unexpected(reply, to: "INCR script") }
        return count
    }

    /// The epoch lives under `epochKey`, without expiry, in milliseconds of Redis's own clock (`TIME`), so that
    /// which node wrote it, and how its clock runs, does not matter. Every `spend` reads it in the same script that
    /// records the item, with the `run_id` key: a Redis that lost its memory (restarted without persistence,
    /// flushed: the epoch is missing) or that was started again (its `run_id` is not the one recorded — also when it
    /// came back from an older snapshot that still holds the epoch) is noticed at the first single-use record after
    /// it, on every node, and the epoch written again as that moment. `now` (the node's clock) is used only by a
    /// Redis too old to run `TIME` in a script that writes (before 3.2).
    public func establishEpoch(now: Int64) async throws -> Int64 {
        let reply = try await client.send { runID in
            RedisCommand("EVAL", [Array(Self.epochScript.utf8), Array("2".utf8), self.redisKey(Self.epochKey),
                                  self.redisKey(Self.runIDKey), self.decimal(now), Array((runID ?? "").utf8)],
                         isIdempotent: true)
        }
        guard case .array(let values?) = reply, values.count == 2, case .integer(let reason) = values[1] else {
            throw unexpected(reply, to: "epoch script")
        }
        let epoch = try epoch(values[0], from: "epoch script")
        noteEpoch(reason: reason, epoch: epoch, atStart: true)
        return epoch
    }

    public func spend(_ key: String, issuedAt: Int64, ttl: Duration, now: Int64) async throws -> SpendOutcome {
        let milliseconds = try ttl.ephemeralLifetime("ttl")
        let reply = try await client.send { runID in
            RedisCommand("EVAL", [Array(Self.spendScript.utf8), Array("3".utf8), self.redisKey(Self.epochKey),
                                  self.redisKey(Self.runIDKey), self.redisKey(key), self.decimal(now),
                                  Array((runID ?? "").utf8), self.decimal(milliseconds)], isIdempotent: false)
        }
        guard case .array(let values?) = reply, values.count == 3, case .integer(let stored) = values[1],
              case .integer(let reason) = values[2] else {
            throw unexpected(reply, to: "spend script")
        }
        let epoch = try epoch(values[0], from: "spend script")
        noteEpoch(reason: reason, epoch: epoch, atStart: false)
        let (boundary, overflow) = epoch.addingReportingOverflow(clockSkewAllowance)
        if overflow || issuedAt < boundary { return .issuedBeforeEpoch }
        return stored == 1 ? .spent : .alreadySpent
    }

    /// Logs a new epoch: at start on an empty Redis it is routine; otherwise the store lost what it remembered.
    private func noteEpoch(reason: Int64, epoch: Int64, atStart: Bool) {
        switch RedisEpochScripts.Reason(rawValue: reason) {
        case .unchanged?:
            return
        case .epochMissing? where atStart:
            logger.info("redis: the ephemeral store's epoch was written", metadata: ["event": "ephemeral.epoch_written",
                                                                                   "epoch": "\(epoch)"])
        case .epochMissing?:
            logger.warning("redis lost its memory (the store's epoch was missing): what was issued before the new epoch is refused",
                           metadata: ["event": "ephemeral.epoch_reset", "reason": "epoch_missing", "epoch": "\(epoch)"])
        case .serverRestarted?, nil:
            logger.warning("redis was started again (its run_id changed): what was issued before the new epoch is refused",
                           metadata: ["event": "ephemeral.epoch_reset", "reason": "server_restarted", "epoch": "\(epoch)"])
        }
    }

    public func ping() async throws {
        let reply = try await client.send(RedisCommand("PING", isIdempotent: true))
        guard reply == .simpleString("PONG") else { throw unexpected(reply, to: "PING") }
    }

    /// Closes the connections; later operations fail with `REDIS_UNAVAILABLE`.
    public func shutdown() async {
        await client.shutdown()
    }

    // MARK: -

    /// `INCR`, and a `PEXPIRE` when the key has no expiry yet (a new counter, or one left without one).
    static let incrementScript = """
        local n = redis.call('INCR', KEYS[1])
        if n == 1 or redis.call('PTTL', KEYS[1]) == -1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
        return n
        """

    /// The key of the store's epoch (under `keyPrefix`).
    static let epochKey = RedisEpochScripts.epochKey

    /// The key of the `run_id` of the Redis process that wrote the epoch (under `keyPrefix`).
    static let runIDKey = RedisEpochScripts.runIDKey

    static let epochScript = RedisEpochScripts.epoch

    static let spendScript = RedisEpochScripts.spend

    /// `GETDEL` for Redis < 6.2.
    static let takeScript = """
        local v = redis.call('GET', KEYS[1])
        if v then redis.call('DEL', KEYS[1]) end
        return v
        """

    private static func takeScript(_ key: [UInt8]) -> RedisCommand {
        RedisCommand("EVAL", [Array(takeScript.utf8), Array("1".utf8), key], isIdempotent: false)
    }

    /// The reply or the error, as a value (a `catch … where` on a typed throw crashes the Swift 6.3.1 compiler).
    private func sendAllowingUnknownCommand(_ command: RedisCommand) async -> Result<RESPValue, EphemeralStoreError> {
        do {
            return .success(try await client.send(command))
        } catch {
            return .failure(error)
        }
    }

    /// A server older than the command answers `ERR unknown command 'GETDEL'…` without running anything.
    private static func isUnknownCommand(_ error: EphemeralStoreError) -> Bool {
        error.code == EphemeralStoreError.Code.redisError && error.message.lowercased().hasPrefix("err unknown command")
    }

    func redisKey(_ key: String) -> [UInt8] { Array((keyPrefix + key).utf8) }

    func decimal(_ number: Int64) -> [UInt8] { Array(String(number).utf8) }

    private func bulk(_ reply: RESPValue, from command: String) throws -> [UInt8]? {
        guard case .bulkString(let bytes) = reply else { throw unexpected(reply, to: command) }
        return bytes
    }

    private func epoch(_ reply: RESPValue, from command: String) throws(EphemeralStoreError) -> Int64 {
        guard case .bulkString(let bytes?) = reply, bytes.count <= 20, let epoch = Int64(String(decoding: bytes, as: UTF8.self)) else {
            throw unexpected(reply, to: command)
        }
        return epoch
    }

    private func unexpected(_ reply: RESPValue, to command: String) -> EphemeralStoreError {
        .redisProtocol("unexpected reply to \(command): \(reply)")
    }

    /// What this store learnt about its server.
    private actor Features {
        private(set) var useScriptForTake: Bool

        init(useScriptForTake: Bool) {
            self.useScriptForTake = useScriptForTake
        }

        func getdelIsUnknown() {
            useScriptForTake = true
        }
    }
}
