import Foundation

/// Runs a Python baseline script of `Benchmarks/` in the same run as the Swift measurement, so that the ratio
/// compares the two on the same machine under the same load.
enum PythonBaseline {
    /// The interpreter: `--python`, else `HOLDFAST_PEERS_PYTHON`, else `.peers/venv/bin/python`, else `python3`.
    static func interpreter(_ explicit: String?) -> String {
        if let explicit, !explicit.isEmpty { return explicit }
        if let fromEnvironment = ProcessInfo.processInfo.environment["HOLDFAST_PEERS_PYTHON"], !fromEnvironment.isEmpty {
            return fromEnvironment
        }
        if FileManager.default.isExecutableFile(atPath: ".peers/venv/bin/python") { return ".peers/venv/bin/python" }
        return "/usr/bin/env"
    }

    /// Runs `script` with `arguments` and decodes the one JSON object it prints.
    static func run(python: String, script: String, arguments: [String]) throws -> [String: Any] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = (python == "/usr/bin/env" ? ["python3"] : []) + [script] + arguments
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        do { try process.run() } catch {
            throw CommandFailure(.failure, "cannot start \(python): \(error)")
        }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        let errorText = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0,
              let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            throw CommandFailure(.failure, "baseline \(script) failed (exit \(process.terminationStatus)): \(errorText)")
        }
        return object
    }
}
