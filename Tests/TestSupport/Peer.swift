import Foundation
import Testing

/// Runs the independent Python implementations of `shared/peers/` (see its README) as oracles.
///
/// The Python interpreter is `HOLDFAST_PEERS_PYTHON`, or `.peers/venv/bin/python` in the package root, which
/// `.ci/run` creates. Interop tests use `.enabled(if: Peer.isAvailable, Peer.unavailableReason)` so that they skip
/// with a visible message where the peers are not installed.
public enum Peer {
    public static let python: URL? = {
        if let override = TestEnvironment.nonEmpty("HOLDFAST_PEERS_PYTHON") {
            return URL(fileURLWithPath: override)
        }
        let local = TestEnvironment.packageRoot.appendingPathComponent(".peers/venv/bin/python")
        return FileManager.default.isExecutableFile(atPath: local.path) ? local : nil
    }()

    public static let scriptsDirectory: URL = TestEnvironment.sharedDirectory.appendingPathComponent("peers")

    public static var isAvailable: Bool {
        python != nil && FileManager.default.fileExists(atPath: scriptsDirectory.appendingPathComponent("peerlib.py").path)
    }

    public static let unavailableReason: Comment =
        "interop peers not installed: run `python3 -m venv .peers/venv && .peers/venv/bin/pip install --no-deps -r ../shared/peers/requirements.txt` (or set HOLDFAST_PEERS_PYTHON)"

    public struct Result: Sendable {
        public let exitCode: Int32
        public let stdout: String
        public let stderr: String
        /// The one JSON object the peer printed, serialized back to Data so the result stays Sendable.
        public let json: Data?

        public var accepted: Bool { exitCode == 0 }

        public func object() throws -> [String: Any] {
            guard let json, let object = try JSONSerialization.jsonObject(with: json) as? [String: Any] else {
                throw TestSupportError("peer printed no JSON object; stdout: \(stdout) stderr: \(stderr)")
            }
            return object
        }
    }

    /// Runs `script` (e.g. "peer_cbor.py") with `arguments`; returns its exit code and the JSON it printed.
    ///
    /// The Python process (about a second of interpreter start and imports) is waited for on a thread of its own,
    /// never on one of Swift concurrency's cooperative threads: there are as many of those as cores (two here), and
    /// two blocking peer calls would stall every other test of the suite, timing-sensitive ones included.
    public static func run(_ script: String, _ arguments: [String]) async throws -> Result {
        try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread {
                continuation.resume(with: Swift.Result { try runBlocking(script, arguments) })
            }
        }
    }

    private static func runBlocking(_ script: String, _ arguments: [String]) throws -> Result {
        guard let python else { throw TestSupportError("peers unavailable") }
        let process = Process()
        process.executableURL = python
        process.arguments = [scriptsDirectory.appendingPathComponent(script).path] + arguments
        process.currentDirectoryURL = scriptsDirectory
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        let errData = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let stdout = String(decoding: outData, as: UTF8.self)
        // The peers print one JSON object; take the last line that parses, so that stray library warnings do not matter.
        var json: Data?
        if let whole = try? JSONSerialization.jsonObject(with: outData), whole is [String: Any] {
            json = outData
        } else {
            for line in stdout.split(separator: "\n").reversed() {
                let data = Data(line.utf8)
                if (try? JSONSerialization.jsonObject(with: data)) is [String: Any] { json = data; break }
            }
        }
        return Result(exitCode: process.terminationStatus, stdout: stdout,
                      stderr: String(decoding: errData, as: UTF8.self), json: json)
    }

    /// Writes bytes to a fresh temporary file and returns `@path`, the peers' way of taking a file argument.
    public static func fileArgument(_ bytes: some Sequence<UInt8>, name: String = "input.bin") throws -> String {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("holdfast-peer-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let url = directory.appendingPathComponent(name)
        try Data(bytes).write(to: url)
        return "@" + url.path
    }
}
