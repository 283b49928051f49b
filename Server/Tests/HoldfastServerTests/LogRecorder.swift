import Foundation
import Logging

/// Collects the `event` metadata of every log line, for tests of distinct log events (security incidents).
final class LogRecorder: @unchecked Sendable {
    // @unchecked Sendable: `recorded` is only touched under `lock`.
    private let lock = NSLock()
    private var recorded: [String] = []

    var events: [String] { lock.withLock { recorded } }

    func record(_ event: String) { lock.withLock { recorded.append(event) } }

    var logger: Logger {
        Logger(label: "holdfast.test.recorder") { _ in Handler(recorder: self) }
    }

    struct Handler: LogHandler {
        let recorder: LogRecorder
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .trace

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) {
            if case .string(let name)? = event.metadata?["event"] { recorder.record(name) }
        }
    }
}
