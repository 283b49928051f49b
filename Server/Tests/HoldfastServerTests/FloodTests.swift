import Crypto
import Foundation
import HoldfastProtocol
@testable import HoldfastServer
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import ServerTestSupport
import Testing

/// A flood of unauthenticated requests from one source, on loopback, against a server with the default limits
/// (docs/operations.md "Configuration"): the flooder gets 429s, no request gets a 500, an instance's renewals keep working,
/// and a registration from another source (through a trusted proxy) succeeds.
@Suite struct FloodTests {
    static let requests = 100_000

    @Test(.timeLimit(.minutes(5)))
    func aChallengeFloodFromOneSourceStopsNeitherRenewalsNorOtherSources() async throws {
        try await ServerTestKit.run(.sqlite, testing: .live, configure: {
            $0.rateLimit = RateLimitConfiguration()
            try? $0.rateLimit.setTrustedProxies("127.0.0.1")
        }) { kit in
            let applicationId = try #require(try await kit.createApplication(ServerTestKit.iosApplication()).id)
            let device = try await kit.registerDevice(applicationId)
            let port = try #require(kit.client.port)

            let flood = Task.detached {
                try await RawHTTPFlood.run(port: port, path: TetheringRoutes.Template.challenges.path(["applicationId": applicationId]),
                                           count: Self.requests)
            }
            // During the flood: renewals (authenticated, not counted per source) and one registration from a client
            // behind the trusted proxy.
            var renewals: [HTTPResponse.Status] = []
            for _ in 0..<20 {
                renewals.append(try await kit.call(device, TetheringRoutes.Template.license).status)
                try await Task.sleep(for: .milliseconds(50))
            }
            let elsewhere: HTTPFields = [HTTPField.Name("X-Forwarded-For")!: "198.51.100.7"]
            let challengeResponse = try await kit.client.execute(
                uri: TetheringRoutes.Template.challenges.path(["applicationId": applicationId]), method: .post, headers: elsewhere)
            #expect(challengeResponse.status == .created)
            let challenge = try challengeResponse.wire(ChallengeResponse.self).challenge
            var headers = HTTPFields.json(bearer: nil)
            headers[HTTPField.Name("X-Forwarded-For")!] = "198.51.100.7"
            let body = try HoldfastJSON.encode(try ServerTestKit.registration(challenge: challenge, key: P256.Signing.PrivateKey()))
            let registration = try await kit.client.execute(uri: TetheringRoutes.Template.instances.path(["applicationId": applicationId]),
                                                            method: .post, headers: headers,
                                                            body: jsonBody(String(decoding: body, as: UTF8.self)))
            #expect(registration.status == .created, "registration: \(registration.status) \(registration.text)")

            let counts = try await flood.value
            #expect(counts.values.reduce(0, +) == Self.requests)
            #expect(counts[500] == nil && counts.keys.allSatisfy { $0 < 500 }, "statuses: \(counts)")
            #expect((counts[429] ?? 0) > Self.requests * 9 / 10, "statuses: \(counts)")
            #expect((counts[201] ?? 0) >= RateLimitConfiguration.defaultBurst, "statuses: \(counts)")
            #expect(renewals.allSatisfy { $0 == .ok }, "renewals during the flood: \(renewals)")
            // And after it.
            #expect(try await kit.call(device, TetheringRoutes.Template.license).status == .ok)
            let health = try await kit.client.execute(uri: "/health", method: .get, headers: elsewhere)
            #expect(health.status == .ok)
        }
    }
}

/// HTTP/1.1 requests pipelined on one blocking connection (`RawConnection`), on a thread of its own so that the cooperative pool stays
/// free for the server and the rest of the test. Returns how many responses had each status.
enum RawHTTPFlood {
    static func run(port: Int, path: String, count: Int, batch: Int = 256) async throws -> [Int: Int] {
        try await withCheckedThrowingContinuation { continuation in
            let thread = Thread {
                continuation.resume(with: Result { try flood(port: port, path: path, count: count, batch: batch) })
            }
            thread.stackSize = 1 << 20
            thread.start()
        }
    }

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    private static func flood(port: Int, path: String, count: Int, batch: Int) throws -> [Int: Int] {
        let connection = try RawConnection(port: port)
        defer { connection.close() }
        let request = Array("POST \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 0\r\n\r\n".utf8)
        var statuses: [Int: Int] = [:]
        var parser = ResponseParser()
        var sent = 0
        while sent < count {
            let now = min(batch, count - sent)
            var bytes: [UInt8] = []
            bytes.reserveCapacity(request.count * now)
            for _ in 0..<now { bytes += request }
            try connection.send(bytes)
            sent += now
            var answered = 0
            while answered < now {
                let received = try connection.receive()
                guard !received.isEmpty else { throw Failure(description: "closed after \(sent) sent") }
                for status in try parser.feed(received[...]) {
                    statuses[status, default: 0] += 1
                    answered += 1
                }
            }
        }
        return statuses
    }

    /// Splits a stream of responses with `Content-Length` bodies into their status codes.
    struct ResponseParser {
        private var pending: [UInt8] = []

        mutating func feed(_ bytes: ArraySlice<UInt8>) throws -> [Int] {
            pending += bytes
            var statuses: [Int] = []
            var start = 0
            while let headerEnd = Self.find([13, 10, 13, 10], in: pending, from: start) {
                let head = String(decoding: pending[start..<headerEnd], as: UTF8.self)
                let lines = head.split(separator: "\r\n")
                guard let statusLine = lines.first, statusLine.hasPrefix("HTTP/1.1 "),
                      let status = Int(statusLine.dropFirst(9).prefix(3)) else {
                    throw Failure(description: "not a response: \(head.prefix(80))")
                }
                var length = 0
                for line in lines.dropFirst() where line.lowercased().hasPrefix("content-length:") {
                    length = Int(line.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces)) ?? 0
                }
                let end = headerEnd + 4 + length
                guard end <= pending.count else { break }
                statuses.append(status)
                start = end
            }
            pending.removeFirst(start)
            return statuses
        }

        private static func find(_ needle: [UInt8], in haystack: [UInt8], from start: Int) -> Int? {
            guard haystack.count >= needle.count, start <= haystack.count - needle.count else { return nil }
            var index = start
            while index <= haystack.count - needle.count {
                if haystack[index] == needle[0], haystack[index + 1] == needle[1], haystack[index + 2] == needle[2],
                   haystack[index + 3] == needle[3] { return index }
                index += 1
            }
            return nil
        }
    }
}
