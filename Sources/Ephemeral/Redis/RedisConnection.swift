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

    private init(channel: any Channel, id: Int) {
        self.channel = channel
        self.id = id
    }

    var isActive: Bool { channel.isActive }

    /// Connects, then authenticates and selects the database (each step bounded by the configuration's timeouts).
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
        let connection = RedisConnection(channel: channel, id: id)
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
        } catch {
            connection.close()
            throw error
        }
        logger.debug("redis connection open", metadata: ["redis.connection": "\(id)"])
        return connection
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
