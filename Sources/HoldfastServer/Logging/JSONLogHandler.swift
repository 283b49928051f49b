import Foundation
import Logging

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
            var object: [String: Any] = [
                "time": time,
                "level": event.level.rawValue,
                "label": label,
                "message": event.message.description,
            ]
            if !merged.isEmpty { object["metadata"] = Self.jsonValue(.dictionary(merged)) }
            if let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes]),
               let text = String(data: data, encoding: .utf8) {
                line = text
            } else {
                line = #"{"level":"error","message":"unencodable log line"}"#
            }
        case .text:
            let rendered = merged.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
            line = "\(time) \(event.level.rawValue.uppercased()) \(label): \(event.message)" + (rendered.isEmpty ? "" : " " + rendered)
        }
        sink.write(line + "\n")
    }

    static func jsonValue(_ value: Logger.MetadataValue) -> Any {
        switch value {
        case .string(let string): string
        case .stringConvertible(let convertible): convertible.description
        case .array(let values): values.map(jsonValue)
        case .dictionary(let dictionary): dictionary.mapValues(jsonValue)
        }
    }

    static func timestamp() -> String {
        Date().formatted(.iso8601.year().month().day().time(includingFractionalSeconds: true).timeZone(separator: .omitted))
    }
}

/// Where log lines go. One `write` call per line, so lines from concurrent requests do not interleave.
public struct LogSink: Sendable {
    private let output: @Sendable (String) -> Void

    public init(_ output: @escaping @Sendable (String) -> Void) {
        self.output = output
    }

    func write(_ line: String) { output(line) }

    public static let standardError = LogSink { line in
        FileHandle.standardError.write(Data(line.utf8))
    }
}
