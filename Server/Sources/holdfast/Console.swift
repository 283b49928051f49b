import Foundation
import HoldfastServer
import Logging

/// Output for people and scripts: lines flushed at once (so a supervisor reading a pipe sees the bootstrap
/// key line immediately) and JSON documents.
enum Console {
    static func line(_ text: String) {
        FileHandle.standardOutput.write(Data((text + "\n").utf8))
    }

    /// A line on standard error: what is for the person at the terminal beside a command's JSON (the QR code of
    /// `--qr`), so that standard output stays the JSON alone (`| jq` works).
    static func errorLine(_ text: String) {
        FileHandle.standardError.write(Data((text + "\n").utf8))
    }

    /// `text` as it is, without a line added.
    static func write(_ text: String) {
        FileHandle.standardOutput.write(Data(text.utf8))
    }

    static func json(_ value: some Encodable) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        line(String(decoding: try encoder.encode(value), as: UTF8.self))
    }

    /// Tools log warnings and errors only, on standard error, in the configured format.
    static func logger(_ configuration: HoldfastConfiguration) -> Logger {
        var quiet = configuration
        if quiet.logLevel < .warning { quiet.logLevel = .warning }
        return HoldfastLogging.logger(quiet, label: "holdfast.cli")
    }
}
