import ArgumentParser
import Foundation
import HoldfastServer

/// `holdfast serve` — runs the tenant server (DESIGN.md §5) until SIGTERM / SIGINT, then shuts down
/// gracefully. Configuration from `HOLDFAST_*` variables, overridden by the flags.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Run the tenant server.",
        discussion: """
            Reads HOLDFAST_HOST, HOLDFAST_PORT, HOLDFAST_DATA, HOLDFAST_DATABASE_URL, HOLDFAST_REDIS_URL, \
            HOLDFAST_MASTER_KEY, HOLDFAST_PUBLIC_URL, HOLDFAST_LOG_LEVEL, HOLDFAST_LOG_FORMAT and \
            HOLDFAST_MAX_BODY_BYTES, the limits and timeouts of the Configuration table in docs/operations.md. On first start \
            with an empty database it prints the bootstrap admin key once. On SIGTERM / SIGINT requests in flight \
            get HOLDFAST_SHUTDOWN_DEADLINE_SECS (10) to finish; then the connections are closed and it exits 0.
            """)

    @Option(help: "Address to listen on (HOLDFAST_HOST, default 127.0.0.1).")
    var host: String?

    @Option(help: "Port to listen on, 0 for any free port (HOLDFAST_PORT, default 8080).")
    var port: String?

    @Option(name: .customLong("data"), help: "Data folder (HOLDFAST_DATA, default ./holdfast-data).")
    var dataDirectory: String?

    /// A malformed flag is a wrong command line (docs/command-line.md "Exit codes": 64 with the usage), found before anything starts.
    func validate() throws {
        var flags = HoldfastConfiguration()
        do {
            if let host { try flags.setHost(host) }
            if let port { try flags.setPort(port) }
        } catch {
            throw ValidationError("\(error.variable) \(error.reason)")
        }
    }

    func run() async throws {
        var configuration = try HoldfastConfiguration.fromEnvironment(dataDirectory: dataDirectory)
        if let host { try configuration.setHost(host) }
        if let port { try configuration.setPort(port) }
        HoldfastLogging.bootstrapProcess(configuration)
        let metrics = HTTPMetrics.bootstrapProcess()
        Console.line(configuration.description)
        // Bind first: a port that is taken must not cost the one showing of the bootstrap admin key.
        try await ListenProbe.check(host: configuration.host, port: configuration.port)
        let host = configuration.host
        let (application, startup) = try await HoldfastApplication.build(
            configuration: configuration,
            options: .init(metrics: metrics, onServerRunning: { port in
                Console.line("listening on http://\(host.contains(":") ? "[\(host)]" : host):\(port)")
            }))
        Console.line("tenant signing key: \(startup.tenantKeyID)\(startup.tenantKeyCreated ? " (created)" : "")")
        if let key = startup.bootstrapAdminKey {
            Console.line("bootstrap admin key: \(key)")
            Console.line("(shown once: keep it safe; create more with POST /v1/admin/keys or `holdfast admin keys create`)")
        }
        let watchdog = ShutdownWatchdog(deadline: configuration.connections.shutdownDeadline + ShutdownWatchdog.grace)
        try await HoldfastApplication.serve(application, shutdownDeadline: configuration.connections.shutdownDeadline)
        watchdog.cancel()
    }
}
