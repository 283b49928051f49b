import Foundation
import Testing
import TestSupport

/// `holdfast bench` run outside the repository (docs/operations.md "Benchmarks"): its Python baselines are found in the
/// repository the binary was built from, and a script found nowhere is a usage error that says where it looked.
struct BenchCommandTests {
    /// Runs `holdfast` with `arguments` in a scratch working directory of its own.
    static func runElsewhere(_ arguments: [String]) async throws -> (status: Int32, output: String) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("holdfast-bench-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let executable = try ServeProcessTests.executable().path
        var environment = ProcessInfo.processInfo.environment
        if let python = Peer.python { environment["HOLDFAST_PEERS_PYTHON"] = python.path }
        let quoted = ([executable] + arguments).map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }
        let result = try await ChildProcess.run(executable: "/bin/sh", arguments: ["-c", "cd '\(folder.path)' && exec " + quoted.joined(separator: " ")],
                                                environment: environment)
        return (result.status, String(decoding: result.output, as: UTF8.self) + String(decoding: result.error, as: UTF8.self))
    }

    @Test(.enabled(if: Peer.isAvailable, Peer.unavailableReason))
    func theStatusBaselineIsFoundOutsideTheRepository() async throws {
        let (status, output) = try await Self.runElsewhere(["bench", "status", "--entries", "4096", "--seconds", "0.2"])
        #expect(status == 0, "\(output)")
        #expect(output.contains("pyeudiw StatusListTokenHelper.from_token"), "\(output)")
    }

    @Test func aBaselineScriptFoundNowhereIsAUsageError() async throws {
        let (status, output) = try await Self.runElsewhere(["bench", "status", "--entries", "4096", "--seconds", "0.2",
                                                            "--baseline-script", "Benchmarks/no_such_baseline.py"])
        #expect(status == 64, "\(output)")
        #expect(output.contains("baseline script Benchmarks/no_such_baseline.py not found"), "\(output)")
    }
}
