import Foundation
import ServerTestSupport
import TestSupport

/// A PostgreSQL server of one test's own, in a scratch folder on a free port, that the test may stop (even with
/// `-m immediate`, as a crash) and start again without touching the shared `HOLDFAST_TEST_POSTGRES_URL` server.
/// Needs Debian's postgresql package (`.ci/run` installs it); as root, the server runs as the `postgres` user.
final class PrivatePostgres: Sendable {
    let directory: URL
    let port: Int
    private let binaries: String

    /// The `bin` folder of the newest PostgreSQL installed, if any.
    static var binaries: String? {
        let root = "/usr/lib/postgresql"
        let versions = ((try? FileManager.default.contentsOfDirectory(atPath: root)) ?? []).compactMap { Int($0) }.sorted()
        guard let newest = versions.last else { return nil }
        let binaries = "\(root)/\(newest)/bin"
        return FileManager.default.isExecutableFile(atPath: binaries + "/initdb") ? binaries : nil
    }

    static var isAvailable: Bool { binaries != nil }

    /// A URL for the role `holdfast` (password `holdfast`) on the database `holdfast`.
    var url: String { "postgres://holdfast:holdfast@127.0.0.1:\(port)/holdfast" }

    private init(directory: URL, port: Int, binaries: String) {
        self.directory = directory
        self.port = port
        self.binaries = binaries
    }

    static func start() async throws -> PrivatePostgres {
        guard let binaries else { throw TestSupportError("PostgreSQL is not installed") }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("holdfast-pg-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let server = PrivatePostgres(directory: directory, port: try RawConnection.freePort(), binaries: binaries)
        if getuid() == 0 { try await server.run("/bin/chown", ["postgres", directory.path]) }
        try await server.run("\(binaries)/initdb", ["-D", server.data, "-U", "postgres", "--auth=trust", "-E", "UTF8"],
                             asPostgres: true)
        try await server.start()
        try await server.run("\(binaries)/psql", ["-h", "127.0.0.1", "-p", String(server.port), "-U", "postgres", "-qc",
                                                  "CREATE ROLE holdfast LOGIN PASSWORD 'holdfast'"], asPostgres: true)
        try await server.run("\(binaries)/psql", ["-h", "127.0.0.1", "-p", String(server.port), "-U", "postgres", "-qc",
                                                  "CREATE DATABASE holdfast OWNER holdfast"], asPostgres: true)
        return server
    }

    private var data: String { directory.appendingPathComponent("data").path }

    func start() async throws {
        try await run("\(binaries)/pg_ctl", ["-D", data, "-l", directory.appendingPathComponent("log").path, "-w", "-t", "60",
                                             "-o", "-c listen_addresses=127.0.0.1 -p \(port) -k \(directory.path) -c fsync=off",
                                             "start"], asPostgres: true)
    }

    /// Stops the server: `immediate` is PostgreSQL's crash-like stop (every backend killed, recovery at the next start).
    func stop(immediate: Bool = false) async throws {
        try await run("\(binaries)/pg_ctl", ["-D", data, "-m", immediate ? "immediate" : "fast", "-w", "stop"], asPostgres: true)
    }

    /// Runs SQL as the superuser (for `pg_terminate_backend` and `pg_stat_activity`); its output, one row a line.
    @discardableResult
    func superuser(_ sql: String) async throws -> String {
        try await run("\(binaries)/psql", ["-h", "127.0.0.1", "-p", String(port), "-U", "postgres", "-d", "holdfast",
                                           "-tAc", sql], asPostgres: true)
    }

    func destroy() async {
        try? await stop(immediate: true)
        try? FileManager.default.removeItem(at: directory)
    }

    @discardableResult
    private func run(_ executable: String, _ arguments: [String], asPostgres: Bool = false) async throws -> String {
        let (command, fullArguments) = asPostgres && getuid() == 0
            ? ("/usr/sbin/runuser", ["-u", "postgres", "--", executable] + arguments)
            : (executable, arguments)
        let result = try await ChildProcess.run(executable: command, arguments: fullArguments)
        let output = String(decoding: result.output, as: UTF8.self)
        guard result.status == 0 else {
            throw TestSupportError("\(executable) \(arguments.joined(separator: " ")) exited \(result.status): "
                                   + output + String(decoding: result.error, as: UTF8.self))
        }
        return output
    }
}
