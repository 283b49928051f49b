import Logging
import NIOCore

/// Up to `maxConnections` connections, each lent to one command at a time; commands beyond them wait in line
/// (at most `maxWaitingCommands`). A connection that broke is dropped, and the next command opens a new one.
actor RedisConnectionPool {
    /// What a waiting command is given: a free connection, or a free slot to open one itself.
    private enum Grant {
        case connection(RedisConnection)
        case slot
    }

    private let configuration: RedisConfiguration
    private let group: any EventLoopGroup
    private let logger: Logger
    private var idle: [RedisConnection] = []
    /// Connections lent, idle or being opened.
    private var openCount = 0
    private var waiters: [(id: Int, continuation: CheckedContinuation<Grant, any Error>)] = []
    private var nextID = 0
    private var isShutDown = false

    init(configuration: RedisConfiguration, group: any EventLoopGroup, logger: Logger) {
        self.configuration = configuration
        self.group = group
        self.logger = logger
    }

    /// A connection for one command; give it back with `release`.
    func lease() async throws(EphemeralStoreError) -> RedisConnection {
        guard !isShutDown else { throw .redisUnavailable("the Redis client is shut down") }
        while let connection = idle.popLast() {
            if connection.isActive { return connection }
            openCount -= 1
        }
        if openCount < configuration.maxConnections {
            openCount += 1
            return try await open()
        }
        guard waiters.count < configuration.maxWaitingCommands else {
            throw .redisUnavailable("more than \(configuration.maxWaitingCommands) commands wait for a Redis connection")
        }
        nextID += 1
        let id = nextID
        let grant: Grant
        do {
            grant = try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { continuation in
                    if Task.isCancelled {
                        continuation.resume(throwing: CancellationError())
                    } else {
                        waiters.append((id, continuation))
                    }
                }
            } onCancel: {
                Task { await self.cancelWaiter(id) }
            }
        } catch let error as EphemeralStoreError {
            throw error
        } catch {
            throw .redisUnavailable("cancelled while waiting for a Redis connection")
        }
        switch grant {
        case .connection(let connection): return connection
        case .slot: return try await open()
        }
    }

    /// Gives a connection back; a connection that failed (or may be out of step) is closed instead of reused.
    func release(_ connection: RedisConnection, reusable: Bool) {
        if reusable, connection.isActive, !isShutDown {
            if waiters.isEmpty {
                idle.append(connection)
            } else {
                waiters.removeFirst().continuation.resume(returning: .connection(connection))
            }
            return
        }
        connection.close()
        freeSlot()
    }

    /// Fails every waiting command and closes the idle connections; lent ones are closed when given back.
    func shutdown() async {
        isShutDown = true
        let waiting = waiters
        waiters.removeAll()
        for waiter in waiting {
            waiter.continuation.resume(throwing: EphemeralStoreError.redisUnavailable("the Redis client is shut down"))
        }
        let closing = idle
        idle.removeAll()
        openCount -= closing.count
        for connection in closing { await connection.closeAndWait() }
    }

    /// Opens a connection in a slot already counted in `openCount`; frees the slot when that fails.
    private func open() async throws(EphemeralStoreError) -> RedisConnection {
        nextID += 1
        let connection: RedisConnection
        do {
            connection = try await RedisConnection.connect(configuration: configuration, id: nextID, group: group,
                                                           logger: logger)
        } catch {
            freeSlot()
            logger.warning("redis connect failed", metadata: ["redis.error": "\(error)"])
            throw error
        }
        if isShutDown {
            connection.close()
            freeSlot()
            throw .redisUnavailable("the Redis client is shut down")
        }
        return connection
    }

    private func freeSlot() {
        openCount -= 1
        if !waiters.isEmpty, !isShutDown {
            openCount += 1
            waiters.removeFirst().continuation.resume(returning: .slot)
        }
    }

    private func cancelWaiter(_ id: Int) {
        guard let index = waiters.firstIndex(where: { $0.id == id }) else { return }
        waiters.remove(at: index).continuation.resume(throwing: CancellationError())
    }
}
