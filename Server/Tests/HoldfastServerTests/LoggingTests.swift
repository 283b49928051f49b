import Foundation
import HoldfastAdmin
import HTTPTypes
import Hummingbird
import HummingbirdTesting
@testable import HoldfastServer
import Logging
import Testing

/// JSON-lines logs with the request id in every line of a request, and no secrets.
@Suite struct LoggingTests {
    final class Lines: @unchecked Sendable {
        // Test-only collector; `lock` guards `lines`.
        private let lock = NSLock()
        private var lines: [String] = []
        func append(_ line: String) { lock.withLock { lines.append(line) } }
        var all: [String] { lock.withLock { lines } }
    }

    @Test func everyLineIsOneJSONObjectWithTimeLevelMessageMetadata() throws {
        let lines = Lines()
        let sink = LogSink { lines.append($0) }
        var logger = Logger(label: "t") { JSONLogHandler(label: $0, level: .info, sink: sink) }
        logger[metadataKey: "hb.request.id"] = "r1"
        logger.info("hello \"world\"", metadata: ["n": "1"])
        logger.debug("dropped")
        #expect(lines.all.count == 1)
        let line = try #require(lines.all.first)
        #expect(line.hasSuffix("\n"))
        #expect(line.dropLast().contains("\n") == false)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        #expect(object["level"] as? String == "info")
        #expect(object["message"] as? String == "hello \"world\"")
        #expect((object["time"] as? String)?.isEmpty == false)
        #expect((object["metadata"] as? [String: Any])?["hb.request.id"] as? String == "r1")
    }

    @Test func textFormatIsOneLine() {
        let lines = Lines()
        let logger = Logger(label: "t") { JSONLogHandler(label: $0, level: .info, format: .text, sink: LogSink { lines.append($0) }) }
        logger.warning("careful", metadata: ["k": "v"])
        #expect(lines.all.first?.contains("WARNING t: careful k=v") == true)
    }

    @Test func requestLogLinesCarryTheRequestIDAndNoCredentials() async throws {
        let lines = Lines()
        let sink = LogSink { lines.append($0) }
        let logger = Logger(label: "holdfast") { JSONLogHandler(label: $0, level: .info, sink: sink) }
        try await withTestApp(.sqlite, logger: logger) { client, startup in
            let key = try #require(startup.bootstrapAdminKey)
            _ = try await client.execute(uri: AdminKeyRoutes.Template.keys.template + "?limit=5", method: .get,
                                         headers: [.authorization: "Bearer \(key)", HTTPField.Name("X-Request-Id")!: "req-42"])
            let requestLines = lines.all.filter { $0.contains("req-42") }
            #expect(!requestLines.isEmpty)
            #expect(requestLines.contains { $0.contains(#""route":"/v1/admin/keys""#) })
            let secret = String(key.split(separator: "_")[2])
            #expect(!lines.all.contains { $0.contains(secret) })
        }
    }
}
