import Foundation
import HoldfastServer
import Logging
import Testing
import ServerTestSupport
import TestSupport

/// The two databases every storage-touching test runs on. The PostgreSQL case needs
/// `HOLDFAST_TEST_POSTGRES_URL` (a role with CREATEDB): each test gets a fresh database, dropped afterwards,
/// so tests run in parallel. Without the variable the PostgreSQL case is cancelled with a visible reason.
enum StorageBackend: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case sqlite
    case postgresql

    var testDescription: String { rawValue }

    /// SQLite always; PostgreSQL when `HOLDFAST_TEST_POSTGRES_URL` is set (else `StorageTests` shows
    /// `postgreSQLServerIsReachable` as skipped, with the reason).
    static var available: [StorageBackend] {
        TestEnvironment.postgresURL == nil ? [.sqlite] : [.sqlite, .postgresql]
    }

    static let quietLogger: Logger = {
        var logger = Logger(label: "holdfast.test") { _ in SwiftLogNoOpLogHandler() }
        logger.logLevel = .critical
        return logger
    }()

    /// A configuration for this backend in a fresh data folder (and fresh PostgreSQL database), port 0.
    func withConfiguration<T: Sendable>(_ body: (HoldfastConfiguration) async throws -> T) async throws -> T {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("holdfast-test-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        var configuration = HoldfastConfiguration(dataDirectory: folder.path)
        configuration.port = 0
        configuration.logLevel = .critical
        // Many tests send more than a burst of unauthenticated requests from one address; the limit has tests
        // of its own (RateLimitTests), which turn it on.
        configuration.rateLimit = .off
        // The `.live` test client keeps one connection and does not open another when the server closes an idle one
        // (as a real client would); on a loaded machine a test can pause longer than the default idle timeout.
        configuration.connections.idleTimeout = .seconds(3_600)
        // The whole suite runs its PostgreSQL tests at once on a small machine; the query deadline has tests of its
        // own (DatabaseFaultEndToEndTests), which set it.
        configuration.connections.databaseQueryTimeout = StorageBackend.testQueryTimeout
        switch self {
        case .sqlite:
            return try await body(configuration)
        case .postgresql:
            guard let baseURL = TestEnvironment.postgresURL else {
                try Test.cancel("PostgreSQL variant skipped: HOLDFAST_TEST_POSTGRES_URL is not set")
            }
            return try await PostgresTestDatabase.with(baseURL: baseURL) { url in
                configuration.database = .postgres(url: url)
                return try await body(configuration)
            }
        }
    }
}

extension StorageBackend {
    /// The query deadline of the suites' databases: the suite's PostgreSQL tests all run at once, and a query that
    /// waits behind them is not a fault under test.
    static let testQueryTimeout = Duration.seconds(120)

    /// Opens `database` for `body` and closes it afterwards, also when `body` throws (a PostgreSQL pool released
    /// without being shut down stops the test process).
    static func withDatabase<T: Sendable>(_ database: HoldfastConfiguration.Database,
                                          _ body: (HoldfastDatabase) async throws -> T) async throws -> T {
        let opened = try HoldfastDatabase.open(database, logger: quietLogger, queryTimeout: testQueryTimeout)
        do {
            let result = try await body(opened)
            await opened.close()
            return result
        } catch {
            await opened.close()
            throw error
        }
    }
}
