import Foundation

/// Runs a Python baseline script of `Benchmarks/` in the same run as the Swift measurement, so that the ratio
/// compares the two on the same machine under the same load.
enum PythonBaseline {
    /// The interpreter: `--python`, else `HOLDFAST_PEERS_PYTHON`, else `.peers/venv/bin/python` (of the working
    /// directory, else of the repository this binary was built from), else `python3`.
    static func interpreter(_ explicit: String?) -> String {
        if let explicit, !explicit.isEmpty { return explicit }
        if let fromEnvironment = ProcessInfo.processInfo.environment["HOLDFAST_PEERS_PYTHON"], !fromEnvironment.isEmpty {
            return fromEnvironment
        }
        for candidate in [".peers/venv/bin/python", repositoryRoot().appendingPathComponent(".peers/venv/bin/python").path]
        where FileManager.default.isExecutableFile(atPath: candidate) {
            return candidate
        }
        return "/usr/bin/env"
    }

    /// The repository this binary was built from: the scripts of `Benchmarks/` live there, whatever the working
    /// directory of `holdfast bench` (docs/operations.md "Benchmarks").
    static func repositoryRoot(sourceFile: String = #filePath) -> URL {
        // …/Server/Sources/holdfast/Bench/PythonBaseline.swift
        URL(fileURLWithPath: sourceFile).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    }

    /// Where `script` is: as given when it exists (an absolute path, or one relative to the working directory), else
    /// relative to the repository this binary was built from; nil when neither exists.
    static func locate(_ script: String, repository: URL = repositoryRoot()) -> String? {
        if FileManager.default.fileExists(atPath: script) { return script }
        guard !script.hasPrefix("/") else { return nil }
        let inRepository = repository.appendingPathComponent(script).path
        return FileManager.default.fileExists(atPath: inRepository) ? inRepository : nil
    }

    /// Runs `script` with `arguments` and decodes the one JSON object it prints.
    static func run(python: String, script given: String, arguments: [String]) throws -> [String: Any] {
        guard let script = locate(given) else {
            throw CommandFailure(.usage, "baseline script \(given) not found in the working directory nor in the repository "
                                 + "this binary was built from (\(repositoryRoot().path)); pass --baseline-script PATH")
        }
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
