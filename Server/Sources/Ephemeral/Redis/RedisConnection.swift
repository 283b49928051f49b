import Logging
import NIOCore
import NIOPosix

/// One TCP connection to Redis, used by one command at a time (the pool hands it out exclusively).
final class RedisConnection: Sendable {
    /// Why a command failed on a connection, and whether its bytes may have reached the server — which decides
    /// whether `RedisClient` may send it again.
    struct Failure: Error {
        var error: EphemeralStoreError
        var mayHaveBeenSent: Bool
    }

    let channel: any Channel
    let id: Int
    /// The server's `run_id` (`INFO server`) when this connection was opened: a new one for every start of the
    /// server, so a connection opened after a restart carries the new one. Nil when the server refused `INFO`.
    let serverRunID: String?

    private init(channel: any Channel, id: Int, serverRunID: String?) {
        self.channel = channel
        self.id = id
        self.serverRunID = serverRunID
    }

    var isActive: Bool { channel.isActive }

    /// Connects, then authenticates, selects the database and reads the server's `run_id` (each step bounded by the
    /// configuration's timeouts).
    static func connect(configuration: RedisConfiguration, id: Int, group: any EventLoopGroup,
                        logger: Logger) async throws(EphemeralStoreError) -> RedisConnection {
        let limits = configuration.decoderLimits
        let bootstrap = ClientBootstrap(group: group)
            .connectTimeout(TimeAmount(configuration.connectTimeout))
            .channelOption(.socketOption(.tcp_nodelay), value: 1)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(RedisClientHandler(decoderLimits: limits))
                }
            }
        let channel: any Channel
        do {
            channel = try await bootstrap.connect(host: configuration.host, port: configuration.port).get()
        } catch {
            throw .redisUnavailable("cannot connect to Redis at \(configuration.host):\(configuration.port): \(error)")
        }
        let connection = RedisConnection(channel: channel, id: id, serverRunID: nil)
        let runID: String?
        do throws(EphemeralStoreError) {
            if let password = configuration.password {
                var arguments = [Array(password.utf8)]
                if let username = configuration.username { arguments.insert(Array(username.utf8), at: 0) }
                do {
                    _ = try await connection.sendExpectingSuccess(RedisCommand("AUTH", arguments, isIdempotent: true),
                                                                  timeout: configuration.commandTimeout)
                } catch {
                    guard error.code == EphemeralStoreError.Code.redisError else { throw error }
                    throw EphemeralStoreError.redisError("Redis refused AUTH: \(error.message)")
                }
            }
            if configuration.database != 0 {
                _ = try await connection.sendExpectingSuccess(
                    RedisCommand("SELECT", [Array(String(configuration.database).utf8)], isIdempotent: true),
                    timeout: configuration.commandTimeout)
            }
            runID = configuration.readsServerRunID
                ? try await connection.readRunID(timeout: configuration.commandTimeout, logger: logger) : nil
        } catch {
            connection.close()
            throw error
        }
        logger.debug("redis connection open", metadata: ["redis.connection": "\(id)", "redis.run_id": "\(runID ?? "-")"])
        return RedisConnection(channel: channel, id: id, serverRunID: runID)
    }

    /// The `run_id:` line of `INFO server`; nil when the server refuses `INFO` (an ACL, a renamed command), which
    /// leaves a restart of the server unnoticed unless it also lost the store's epoch (docs/operations.md "A store that lost
    /// its memory").
    private func readRunID(timeout: Duration, logger: Logger) async throws(EphemeralStoreError) -> String? {
        let reply: RESPValue
        do {
            reply = try await sendExpectingSuccess(RedisCommand("INFO", [Array("server".utf8)], isIdempotent: true),
                                                   timeout: timeout)
        } catch {
            guard error.code == EphemeralStoreError.Code.redisError else { throw error }
            logger.warning("redis refused INFO: a restart of Redis is noticed only when it lost the store's epoch",
                           metadata: ["redis.error": "\(error.message)"])
            return nil
        }
        guard case .bulkString(let bytes?) = reply else { return nil }
        return Self.runID(inInfo: String(decoding: bytes, as: UTF8.self))
    }

    /// The value of the `run_id:` line of an `INFO` reply (40 hexadecimal characters), if any.
    static func runID(inInfo text: String) -> String? {
        for line in text.split(whereSeparator: \.isNewline) where line.hasPrefix("run_id:") {
            let value = String(line.dropFirst("run_id:".count).filter { !$0.isWhitespace })
            return value.isEmpty || value.count > 64 ? nil : value
        }
        return nil
    }

    /// Sends a command during the handshake; an error reply is thrown as `REDIS_ERROR`.
    private func sendExpectingSuccess(_ command: RedisCommand, timeout: Duration) async throws(EphemeralStoreError) -> RESPValue {
        let reply: RESPValue
        do {
            reply = try await send(command, timeout: timeout)
        } catch {
            throw error.error
        }
        if case .error(let message) = reply { throw .redisError(message) }
        return reply
    }

    /// Sends one command and waits for its reply. A timeout closes the connection: a late reply must never be
    /// read as the answer to the next command.
    func send(_ command: RedisCommand, timeout: Duration) async throws(Failure) -> RESPValue {
        guard channel.isActive else {
            throw Failure(error: .redisUnavailable("the Redis connection closed"), mayHaveBeenSent: false)
        }
        var bytes = channel.allocator.buffer(capacity: 64)
        RESPEncoder.encodeCommand(command.arguments, into: &bytes)
        let reply = channel.eventLoop.makePromise(of: RESPValue.self)
        let channel = self.channel
        let name = command.name
        let timer = channel.eventLoop.scheduleTask(in: TimeAmount(timeout)) {
            reply.fail(EphemeralStoreError.redisTimeout("Redis did not answer \(name) within \(timeout)"))
            channel.close(promise: nil)
        }
        reply.futureResult.whenComplete { _ in timer.cancel() }
        channel.writeAndFlush(RedisRequest(command: bytes, reply: reply)).whenFailure { error in
            reply.fail(EphemeralStoreError.redisUnavailable("cannot write to Redis: \(error)"))
            channel.close(promise: nil)
        }
        do {
            return try await reply.futureResult.get()
        } catch let error as EphemeralStoreError {
            throw Failure(error: error, mayHaveBeenSent: true)
        } catch {
            throw Failure(error: .redisUnavailable("Redis connection failed: \(error)"), mayHaveBeenSent: true)
        }
    }

    func close() {
        channel.close(promise: nil)
    }

    func closeAndWait() async {
        try? await channel.close()
    }
}

extension TimeAmount {
    /// Nanoseconds of a `Duration`, saturating rather than trapping on absurd values.
    init(_ duration: Duration) {
        let (seconds, attoseconds) = duration.components
        let (whole, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        if overflow {
            self = .nanoseconds(seconds < 0 ? 0 : Int64.max)
        } else {
            let (sum, overflow2) = whole.addingReportingOverflow(attoseconds / 1_000_000_000)
            self = .nanoseconds(overflow2 ? Int64.max : max(0, sum))
        }
    }
}
