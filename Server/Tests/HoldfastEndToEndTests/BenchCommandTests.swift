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

    /// `holdfast bench proximity` runs whole in-person sessions that verify and prints the session rate, the raw
    /// crypto baseline, the ratio and the target, in the shape of the other benches (its speed is not checked).
    @Test func theProximityBenchPrintsItsComparison() async throws {
        let (status, output) = try await Self.runElsewhere(["bench", "proximity", "--seconds", "0.2"])
        #expect(status == 0, "\(output)")
        let lines = output.split(separator: "\n").map(String.init).filter { !$0.hasPrefix("warning: this is a debug build") }
        #expect(lines.count == 5, "\(output)")
        guard lines.count == 5 else { return }
        #expect(lines[0].hasPrefix("input: a 20-element mDL, 4 elements requested and disclosed; DeviceRequest "), "\(output)")
        let session = "in-person session: engagement → establishment → request → response → verified: "
        #expect(lines[1].hasPrefix(session), "\(output)")
        let rate = lines[1].dropFirst(session.count).split(separator: " ")
        #expect(rate.count >= 2 && Double(rate[0]).map { $0 > 0 } == true && rate[1] == "sessions/s", "\(output)")
        #expect(lines[2].hasPrefix("raw crypto of one session: 2 ECDH + 4 HKDF + AES-GCM seal/open of request and response "
            + "+ 1 ES256 sign + 2 ES256 verifies: "), "\(output)")
        #expect(lines[2].hasSuffix(" sessions/s"), "\(output)")
        #expect(lines[3].hasPrefix("ratio: ") && lines[3].hasSuffix("×") && Double(lines[3].dropFirst(7).dropLast()) != nil, "\(output)")
        #expect(lines[4] == "target: ≥ 0.50×", "\(output)")
    }
}
