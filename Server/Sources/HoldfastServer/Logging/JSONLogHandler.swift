import Foundation
import Logging
#if canImport(Glibc)
import Glibc
private let systemWrite = Glibc.write
#elseif canImport(Musl)
import Musl
private let systemWrite = Musl.write
#elseif canImport(Darwin)
import Darwin
private let systemWrite = Darwin.write
#endif

/// swift-log handler writing one JSON object per line (`time`, `level`, `label`, `message`, `metadata`) to
/// standard error — or a line of text, for people at a terminal (`HOLDFAST_LOG_FORMAT=text`).
///
/// Secrets never reach it: the server logs no header, body or query string, and no key or token value.
public struct JSONLogHandler: LogHandler {
    public var metadata: Logger.Metadata = [:]
    public var logLevel: Logger.Level
    public let label: String
    public let format: HoldfastConfiguration.LogFormat
    private let sink: LogSink

    public init(label: String, level: Logger.Level, format: HoldfastConfiguration.LogFormat = .json,
                sink: LogSink = .standardError) {
        self.label = label
        self.logLevel = level
        self.format = format
        self.sink = sink
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        var merged = metadata
        if let extra = event.metadata { merged.merge(extra) { _, new in new } }
        let time = Self.timestamp()
        let line: String
        switch format {
        case .json:
            line = LogLineRenderer.json(time: time, level: event.level, label: label, message: event.message.description,
                                        metadata: merged)
        case .text:
            let rendered = merged.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
            line = "\(time) \(event.level.rawValue.uppercased()) \(label): \(event.message)" + (rendered.isEmpty ? "" : " " + rendered)
        }
        sink.write(line + "\n")
    }

    static func timestamp() -> String { LogLineRenderer.timestamp() }
}

/// Where log lines go. One `write` call per line, so lines from concurrent requests do not interleave.
public struct LogSink: Sendable {
    private let output: @Sendable (String) -> Void

    public init(_ output: @escaping @Sendable (String) -> Void) {
        self.output = output
    }

    func write(_ line: String) { output(line) }

    /// One `write(2)` per line (more only if the kernel takes part of it).
    public static let standardError = LogSink { line in writeAll(line, to: STDERR_FILENO) }

    /// Appends every line to the file at `path` (created if missing, mode 0600), as `holdfast serve` writes to
    /// standard error: for benchmarks that measure the server with its access log on.
    public static func appending(toFileAt path: String) throws -> LogSink {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: path])
        }
        return LogSink { line in writeAll(line, to: descriptor) }
    }

    private static func writeAll(_ line: String, to descriptor: Int32) {
        var line = line
        line.withUTF8 { bytes in
            var offset = 0
            while offset < bytes.count {
                let written = systemWrite(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    return
                }
                offset += written
            }
        }
    }
}
