import Foundation
import HoldfastServer
import Logging
import SQLKit

/// A throw-away PostgreSQL database on the test server, shared by the server tests and the end-to-end tests:
/// created before `body`, dropped after it (also when it throws), so that tests can run in parallel.
public enum PostgresTestDatabase {
    /// - Parameters:
    ///   - baseURL: a URL whose role has CREATEDB (`HOLDFAST_TEST_POSTGRES_URL`).
    ///   - prefix: the start of the database name, to tell suites apart in `pg_database`.
    ///   - body: gets the URL of the fresh database.
    public static func with<T: Sendable>(baseURL: String, prefix: String = "hf_test_",
                                         _ body: (String) async throws -> T) async throws -> T {
        let name = prefix + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
        var quiet = Logger(label: "holdfast.test.postgres")
        quiet.logLevel = .critical
        // CREATE DATABASE checkpoints and takes its turn behind every other test's: no query deadline of 10 s here.
        let admin = try HoldfastDatabase.open(.postgres(url: baseURL), logger: quiet, queryTimeout: .seconds(300))
        do {
            try await admin.sql.raw("CREATE DATABASE \(unsafeRaw: name)").run()
        } catch {
            await admin.close()
            throw error
        }
        guard var components = URLComponents(string: baseURL) else {
            await admin.close()
            throw URLError(.badURL)
        }
        components.path = "/" + name
        guard let url = components.string else {
            await admin.close()
            throw URLError(.badURL)
        }
        do {
            let result = try await body(url)
            try? await admin.sql.raw("DROP DATABASE IF EXISTS \(unsafeRaw: name) WITH (FORCE)").run()
            await admin.close()
            return result
        } catch {
            try? await admin.sql.raw("DROP DATABASE IF EXISTS \(unsafeRaw: name) WITH (FORCE)").run()
            await admin.close()
            throw error
        }
    }
}
