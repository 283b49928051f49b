import Foundation
import HoldfastServer

/// The tenant the load benchmarks measure: started in this process on a free loopback port with the environment's
/// configuration (`HOLDFAST_DATABASE_URL` / `HOLDFAST_REDIS_URL` move it to PostgreSQL / Redis), a temporary data
/// folder, and logging as `holdfast serve` does (the access log at `info`), to a file instead of standard error. One
/// change: the per-source limit of unauthenticated routes is raised, because every client here is one source
/// (127.0.0.1); the limiter still runs on every request it covers.
enum InProcessBenchTenant {
    static func run(_ run: CommandRun, _ body: @Sendable (RunningHoldfastServer, BenchTarget) async throws -> Void) async throws {
        let folder = run.temporaryURL("holdfast-bench")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        var configuration = try HoldfastConfiguration.fromEnvironment(dataDirectory: folder.path)
        configuration.host = "127.0.0.1"
        configuration.port = 0
        configuration.publicURL = nil
        configuration.rateLimit.requestsPerSecond = 1_000_000
        configuration.rateLimit.burst = 1_000_000
        // A bench tenant may be the first start on its Redis (a new epoch): its own clock is the machine's, so no
        // allowance for clocks ahead of Redis's is needed, and the runs are not refused for a minute after it
        // (docs/operations.md "A store that lost its memory").
        configuration.redisClockSkew = .zero
        let logger = HoldfastLogging.logger(configuration, sink: try LogSink.appending(toFileAt: folder.appendingPathComponent("server.log").path))
        let logLevel = configuration.logLevel
        try await HoldfastApplication.withRunningServer(configuration: configuration, logger: logger) { server in
            guard let adminKey = server.startup.bootstrapAdminKey else { throw CommandFailure(.failure, "the new tenant printed no admin key") }
            print("— against a tenant in this process at \(server.baseURL) —")
            print("database \(server.startup.database), ephemeral store \(server.startup.ephemeralStore); "
                + "log level \(logLevel) (access log on at info) to a file; per-source limit raised to 1000000/s")
            try await body(server, try BenchTarget(baseURL: server.baseURL, adminKey: adminKey, run: run))
        }
    }
}
