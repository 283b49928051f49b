import Foundation
import HoldfastAdmin
import HoldfastProtocol
import HoldfastServer
import Logging
import Testing
import ServerTestSupport
import TestSupport

/// The databases every end-to-end test runs on, with the approach of `HoldfastServerTests`' `StorageBackend`:
/// SQLite always; PostgreSQL when `HOLDFAST_TEST_POSTGRES_URL` is set (a role with CREATEDB), each test in a fresh
/// database dropped afterwards, so that tests run in parallel.
enum EndToEndBackend: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case sqlite
    case postgresql

    var testDescription: String { rawValue }

    static var available: [EndToEndBackend] {
        TestEnvironment.postgresURL == nil ? [.sqlite] : [.sqlite, .postgresql]
    }

    static let quietLogger: Logger = {
        var logger = Logger(label: "holdfast.e2e") { _ in SwiftLogNoOpLogHandler() }
        logger.logLevel = .critical
        return logger
    }()

    /// Runs an in-process tenant on a free port in a fresh data folder (and fresh PostgreSQL database), with an
    /// admin client holding the bootstrap key, for the length of `body`.
    func withTenant<T: Sendable>(
        tethering: TetheringConfiguration = TetheringConfiguration(),
        clock: any HoldfastClock = SystemClock(),
        configure: @Sendable (inout HoldfastConfiguration) -> Void = { _ in },
        _ body: @Sendable (EndToEndTenant) async throws -> T
    ) async throws -> T {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("holdfast-e2e-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        var configuration = HoldfastConfiguration(dataDirectory: folder.path)
        configuration.port = 0
        configuration.logLevel = .critical
        configuration.tethering = tethering
        // End-to-end flows register many devices from one loopback address; the per-source limit has its own
        // tests (RateLimitTests).
        configuration.rateLimit = .off
        // The benchmark's clients keep their connections and do not reopen one the server closed; a loaded machine
        // can leave one idle longer than the default timeouts (which have tests of their own).
        configuration.connections.headerTimeout = .seconds(600)
        configuration.connections.idleTimeout = .seconds(3_600)
        // The suite's PostgreSQL tests run at once on a small machine; the query deadline has tests of its own.
        configuration.connections.databaseQueryTimeout = .seconds(120)
        configure(&configuration)
        switch self {
        case .sqlite:
            return try await Self.run(configuration, folder: folder, clock: clock, body)
        case .postgresql:
            guard let baseURL = TestEnvironment.postgresURL else {
                try Test.cancel("PostgreSQL variant skipped: HOLDFAST_TEST_POSTGRES_URL is not set")
            }
            return try await PostgresTestDatabase.with(baseURL: baseURL, prefix: "hf_e2e_") { url in
                var configuration = configuration
                configuration.database = .postgres(url: url)
                return try await Self.run(configuration, folder: folder, clock: clock, body)
            }
        }
    }

    private static func run<T: Sendable>(_ configuration: HoldfastConfiguration, folder: URL, clock: any HoldfastClock,
                                         _ body: @Sendable (EndToEndTenant) async throws -> T) async throws -> T {
        try await HoldfastApplication.withRunningServer(configuration: configuration, logger: quietLogger,
                                                        clock: clock) { server in
            let adminKey = try #require(server.startup.bootstrapAdminKey, "a fresh tenant prints a bootstrap key")
            let tenant = EndToEndTenant(baseURL: server.baseURL, admin: AdminClient(baseURL: server.baseURL, adminKey: adminKey),
                                        scratch: folder.appendingPathComponent("devices"),
                                        databaseURL: { if case .postgres(let url) = configuration.database { url } else { nil } }())
            return try await body(tenant)
        }
    }
}
