import Foundation
import HoldfastProtocol
import Hummingbird
import Logging
import ServiceLifecycle

/// A server running in this process, for the length of `HoldfastApplication.withRunningServer`.
public struct RunningHoldfastServer: Sendable {
    /// The port it is bound to (a free one when the configuration asked for port 0).
    public let port: Int
    /// `http://host:port`, for clients in this process.
    public let baseURL: String
    public let startup: HoldfastApplication.StartupInfo
}

extension HoldfastApplication {
    /// Builds and runs a server, calls `body` once it listens, then shuts it down gracefully — for tests,
    /// `holdfast demo` and end-to-end runs. Use port 0 in `configuration` for a free port.
    public static func withRunningServer<T: Sendable>(
        configuration: HoldfastConfiguration, logger: Logger? = nil, clock: any HoldfastClock = SystemClock(),
        _ body: @Sendable (RunningHoldfastServer) async throws -> T
    ) async throws -> T {
        let (ports, continuation) = AsyncStream<Int>.makeStream()
        let (application, startup) = try await build(
            configuration: configuration,
            options: Options(logger: logger, clock: clock, onServerRunning: { port in continuation.yield(port) }))
        let serviceGroup = ServiceGroup(configuration: .init(services: [application], logger: application.logger))
        return try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                defer { continuation.finish() }
                try await serviceGroup.run()
            }
            var iterator = ports.makeAsyncIterator()
            guard let port = await iterator.next() else {
                // The server stopped before listening: its error is the group's.
                try await group.waitForAll()
                throw StorageError(code: StorageError.Code.serverNotStarted, message: "the server stopped before it listened")
            }
            let host = configuration.host.contains(":") ? "[\(configuration.host)]" : configuration.host
            let running = RunningHoldfastServer(port: port, baseURL: "http://\(host):\(port)", startup: startup)
            let result: T
            do {
                result = try await body(running)
            } catch {
                await serviceGroup.triggerGracefulShutdown()
                try? await group.waitForAll()
                throw error
            }
            await serviceGroup.triggerGracefulShutdown()
            try await group.waitForAll()
            return result
        }
    }
}

extension HoldfastApplication {
    /// Runs `application` until SIGTERM or SIGINT (`holdfast serve`, docs/operations.md "Configuration"
    /// `HOLDFAST_SHUTDOWN_DEADLINE_SECS`): it stops accepting connections and requests in flight get
    /// `shutdownDeadline`; at the deadline their connections are closed (`ConnectionGuard`) and their handlers
    /// cancelled — a transaction not committed by then is rolled back (`HoldfastDatabase.transaction`) — and this
    /// returns once they have ended.
    ///
    /// The shutdown is logged when it starts and once more with its outcome: every request finished, or those still
    /// running at the deadline were cancelled.
    /// How long after the shutdown deadline the handlers still running are cancelled (within the second `holdfast
    /// serve` allows past the deadline).
    static let cancellationDelay = Duration.milliseconds(250)

    public static func serve(_ application: some ApplicationProtocol, shutdownDeadline: Duration) async throws {
        let logger = application.logger
        var configuration = ServiceGroupConfiguration(
            services: [.init(service: application),
                       .init(service: ShutdownAnnouncement(logger: logger, deadline: shutdownDeadline), successTerminationBehavior: .ignore)],
            gracefulShutdownSignals: [.sigterm, .sigint], logger: logger)
        // At the deadline the connections' guard answers each request still running (503, `Connection: close`) and
        // closes its connection; the handlers are cancelled a moment later, so that a cancelled handler's own answer
        // never races the guard's, nor the exit that follows before it is written.
        configuration.maximumGracefulShutdownDuration = shutdownDeadline + Self.cancellationDelay
        do {
            try await ServiceGroup(configuration: configuration).run()
            logger.info("shut down", metadata: ["outcome": "every request finished before the deadline"])
        } catch is CancellationError {
            // The handlers cancelled at the deadline: the shutdown the signal asked for.
            logger.notice("shut down", metadata: ["outcome": "requests still running at the deadline were cancelled"])
        } catch {
            logger.error("shut down after a failure", metadata: ["error": .string(String(describing: error))])
            throw error
        }
    }
}

/// Logs the start of a graceful shutdown (SIGTERM or SIGINT) and the deadline requests in flight get.
struct ShutdownAnnouncement: Service {
    let logger: Logger
    let deadline: Duration

    func run() async throws {
        do {
            try await gracefulShutdown()
        } catch {
            return  // cancelled: the group is ending without a graceful shutdown
        }
        logger.info("shutting down: no new connections; requests in flight have until the deadline",
                    metadata: ["deadlineSeconds": .stringConvertible(deadline.components.seconds)])
    }
}
