import Logging
import ServiceLifecycle

/// Closes the database pool and the ephemeral store when the service group shuts down.
struct ResourceCleanup: Service {
    let database: HoldfastDatabase
    let ephemeralShutdown: @Sendable () async -> Void

    func run() async throws {
        try? await gracefulShutdown()
        if Task.isCancelled {
            // The shutdown deadline passed with requests still running (docs/operations.md "Configuration",
            // HOLDFAST_SHUTDOWN_DEADLINE_SECS): their queries are cancelled at PostgreSQL, so that none stays queued
            // on a lock after the node exited. In a task of its own: this one is cancelled, and the cancel request
            // must still go out.
            let database = self.database
            await Task { await database.cancelRunningQueries() }.value
        }
        await ephemeralShutdown()
        await database.close()
    }
}

/// Runs `work` every `interval` until the server shuts down (docs/server-api.md "Credentials": expired offers are purged). A
/// failure is logged and tried again at the next interval; it never stops the server.
struct PeriodicMaintenance: Service {
    let name: String
    let interval: Duration
    let logger: Logger
    let work: @Sendable () async throws -> Void

    func run() async throws {
        while !Task.isCancelled {
            do {
                try await cancelWhenGracefulShutdown { try await Task.sleep(for: interval) }
            } catch {
                return  // shutting down
            }
            do {
                try await work()
            } catch {
                logger.warning("maintenance failed; it runs again later", metadata: ["task": .string(name),
                                                                                    "error": .string(String(describing: error))])
            }
        }
    }
}
