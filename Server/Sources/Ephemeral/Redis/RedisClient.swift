import Logging
import NIOCore
import NIOPosix

/// A small RESP2 client over SwiftNIO: one request and its reply at a time per connection, a few pooled
/// connections, per-command and connect timeouts, reconnection on the next command after a connection broke.
///
/// ## Retries
/// A command is sent again on a fresh connection only when that cannot change what it does:
/// - always, when it certainly did not leave the client (the pooled connection was found closed before writing);
/// - for an idempotent command (`RedisCommand.isIdempotent`), also once its bytes may have been sent, up to
///   `maxRetries` times.
///
/// `GETDEL`, `SET … NX`, `INCR` and scripts are never re-sent after they may have been sent: the first attempt may
/// have run on the server even though its reply was lost with the connection, so a second `GETDEL` would answer
/// nil for a value that was taken and lost, and a second `SET NX` would answer "not stored" for the value it stored
/// — a false "already used" or a lost challenge. Such a failure surfaces as `REDIS_UNAVAILABLE` and the caller
/// decides. A timeout is never retried either (the server may be busy; a retry would double the wait).
public final class RedisClient: Sendable {
    public let configuration: RedisConfiguration
    private let pool: RedisConnectionPool
    private let logger: Logger

    /// - Parameter eventLoopGroup: defaults to NIO's shared singleton group, which needs no shutdown.
    public init(configuration: RedisConfiguration,
                eventLoopGroup: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton,
                logger: Logger = Logger(label: "holdfast.ephemeral.redis")) {
        self.configuration = configuration
        self.logger = logger
        self.pool = RedisConnectionPool(configuration: configuration, group: eventLoopGroup, logger: logger)
    }

    /// Sends `command` and returns its reply. An error reply (`-ERR …`) is thrown as `REDIS_ERROR` with the
    /// server's text; other failures as `REDIS_UNAVAILABLE`, `REDIS_TIMEOUT` or `REDIS_PROTOCOL`.
    public func send(_ command: RedisCommand) async throws(EphemeralStoreError) -> RESPValue {
        try await send { _ in command }
    }

    /// Sends the command `make` builds for the connection it goes out on, from that server's `run_id` (nil when
    /// unknown): a script can then tell whether the data it reads was written by the server process now running.
    public func send(_ make: (_ serverRunID: String?) -> RedisCommand) async throws(EphemeralStoreError) -> RESPValue {
        var retriesAfterSend = 0
        var attempts = 0
        while true {
            attempts += 1
            let connection = try await pool.lease()
            let command = make(connection.serverRunID)
            do {
                let reply = try await connection.send(command, timeout: configuration.commandTimeout)
                await pool.release(connection, reusable: true)
                if case .error(let message) = reply { throw EphemeralStoreError.redisError(message) }
                return reply
            } catch let failure as RedisConnection.Failure {
                await pool.release(connection, reusable: false)
                let error = failure.error
                let retry: Bool
                if !failure.mayHaveBeenSent {
                    // Each such attempt drops one dead pooled connection, so this ends after at most all of them.
                    retry = attempts <= configuration.maxConnections + 1
                } else {
                    retry = command.isIdempotent && error.code == EphemeralStoreError.Code.redisUnavailable
                        && retriesAfterSend < configuration.maxRetries
                    if retry { retriesAfterSend += 1 }
                }
                guard retry else { throw error }
                logger.debug("redis command retried on a new connection",
                             metadata: ["redis.command": "\(command.name)", "redis.error": "\(error)"])
            } catch let error as EphemeralStoreError {
                throw error
            } catch {
                throw .redisProtocol("unexpected failure: \(error)")
            }
        }
    }

    /// Closes every connection; later commands fail with `REDIS_UNAVAILABLE`.
    public func shutdown() async {
        await pool.shutdown()
    }
}
