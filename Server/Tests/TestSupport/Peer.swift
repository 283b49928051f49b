import Foundation
import Testing

/// Runs the independent Python implementations of `shared/peers/` (see its README) as oracles.
///
/// The Python interpreter is `HOLDFAST_PEERS_PYTHON`, or `.peers/venv/bin/python` in the repository root, which
/// `.ci/run` creates. Interop tests use `.enabled(if: Peer.isAvailable, Peer.unavailableReason)` so that they skip
/// with a visible message where the peers are not installed.
public enum Peer {
    public static let python: URL? = {
        if let override = TestEnvironment.nonEmpty("HOLDFAST_PEERS_PYTHON") {
            return URL(fileURLWithPath: override)
        }
        let local = TestEnvironment.repositoryRoot.appendingPathComponent(".peers/venv/bin/python")
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
    ///
    /// At most two peers run at a time (`slots`): each is a second of CPU, and dozens started at once by parallel
    /// tests starved the suite's timing-sensitive tests of both cores for many seconds.
    public static func run(_ script: String, _ arguments: [String]) async throws -> Result {
        try await run(script: scriptsDirectory.appendingPathComponent(script), arguments)
    }

    /// This project's own oracle scripts (`Tests/Peers/`): small wrappers, in the peers' shape, around a peer
    /// library's code for what `shared/peers/` has no command for.
    public static let projectScriptsDirectory: URL = TestEnvironment.packageRoot.appendingPathComponent("Tests/Peers")

    /// Runs the script at `script` with the peers' interpreter, as `run(_:_:)` does.
    public static func run(script: URL, _ arguments: [String]) async throws -> Result {
        guard let python else { throw TestSupportError("peers unavailable") }
        await slots.acquire()
        let finished: (status: Int32, output: Data, error: Data)
        do {
            finished = try await ChildProcess.run(executable: python.path, arguments: [script.path] + arguments)
            await slots.release()
        } catch {
            await slots.release()
            throw error
        }
        let (status, outData, errData) = finished
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
        return Result(exitCode: status, stdout: stdout,
                      stderr: String(decoding: errData, as: UTF8.self), json: json)
    }

    private static let slots = Slots(count: 2)

    /// A counting semaphore for tasks: `acquire` waits, in arrival order, while all slots are taken.
    actor Slots {
        private var free: Int
        private var waiting: [CheckedContinuation<Void, Never>] = []

        init(count: Int) { free = count }

        func acquire() async {
            if free > 0 { free -= 1; return }
            await withCheckedContinuation { waiting.append($0) }
        }

        func release() {
            if waiting.isEmpty { free += 1 } else { waiting.removeFirst().resume() }
        }
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
