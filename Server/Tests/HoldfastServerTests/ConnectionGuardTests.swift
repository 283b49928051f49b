import Foundation
import HoldfastProtocol
@testable import HoldfastServer
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import ServerTestSupport
import Testing

/// Slow, silent, malformed and too many connections (docs/operations.md "Configuration": the timeouts and the connections per
/// source), over real sockets.
@Suite struct ConnectionGuardTests {
    /// Timeouts of `timeout` (short for the tests of timeouts, long for the others, so that a loaded machine does
    /// not close their connections early), limits as given.
    static func configure(_ configuration: inout HoldfastConfiguration, timeout: Duration, connections: Int) {
        configuration.connections = ConnectionConfiguration(
            headerTimeout: timeout, bodyIdleTimeout: timeout, idleTimeout: timeout,
            maximumConnectionsPerSource: connections, shutdownDeadline: .seconds(1))
    }

    /// A server on loopback with the guard's timeouts set to `timeout`; `body` gets its port, the admin key and its
    /// log lines.
    static func withServer(timeout: Duration = .seconds(1), connections: Int = 100, trustedProxies: String? = nil,
                           _ body: @escaping @Sendable (_ port: Int, _ adminKey: String, _ log: LoggingTests.Lines) async throws -> Void)
        async throws {
        let lines = LoggingTests.Lines()
        let logger = Logger(label: "holdfast") { JSONLogHandler(label: $0, level: .info, sink: LogSink { lines.append($0) }) }
        try await withTestApp(.sqlite, .live, configure: {
            configure(&$0, timeout: timeout, connections: connections)
            if let trustedProxies { try? $0.rateLimit.setTrustedProxies(trustedProxies) }
        }, logger: logger) { client, startup in
            try await body(try #require(client.port), try #require(startup.bootstrapAdminKey), lines)
        }
    }

    static func expectProblem(_ received: RawConnection.Received, status: Int, code: HoldfastErrorCode,
                              sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(received.status == status, "got: \(received.text.prefix(300))", sourceLocation: sourceLocation)
        #expect(received.text.lowercased().contains("content-type: application/problem+json"),
                "not a problem: \(received.text.prefix(300))", sourceLocation: sourceLocation)
        #expect(received.body?.contains(#""code":"\#(code.rawValue)""#) == true, "body: \(received.body ?? "")",
                sourceLocation: sourceLocation)
    }

    // MARK: timeouts

    @Test func halfAHeadIsAnswered408AndClosedWithinTheHeaderTimeout() async throws {
        try await Self.withServer { port, _, _ in
            let connection = try RawConnection(port: port)
            try connection.send("GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
            let received = await connection.readUntilClosed(timeout: .seconds(20))
            #expect(received.closed, "the connection stayed open")
            #expect(received.elapsed < .seconds(10))
            Self.expectProblem(received, status: 408, code: .requestTimeout)
        }
    }

    @Test func aHeadTrickledByteByByteIsCutAtTheHeaderTimeoutFromItsFirstByte() async throws {
        try await Self.withServer { port, _, _ in
            let connection = try RawConnection(port: port)
            let reader = Task { await connection.readUntilClosed(timeout: .seconds(20)) }
            for byte in "GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n".utf8.prefix(12) {
                try? connection.send([byte])
                try await Task.sleep(for: .milliseconds(300))
            }
            let received = await reader.value
            #expect(received.closed)
            Self.expectProblem(received, status: 408, code: .requestTimeout)
        }
    }

    @Test func aSilentConnectionIsClosedWithoutAnAnswer() async throws {
        try await Self.withServer { port, _, _ in
            let connection = try RawConnection(port: port)
            let received = await connection.readUntilClosed(timeout: .seconds(20))
            #expect(received.closed)
            #expect(received.bytes.isEmpty)
            #expect(received.elapsed < .seconds(10))
        }
    }

    @Test func aKeptAliveConnectionIsClosedAfterTheIdleTimeout() async throws {
        try await Self.withServer { port, _, _ in
            let connection = try RawConnection(port: port)
            try connection.send("GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            let first = await connection.readResponse(timeout: .seconds(20))
            #expect(first.status == 200)
            let rest = await connection.readUntilClosed(timeout: .seconds(20))
            #expect(rest.closed)
            #expect(rest.bytes.isEmpty)
            #expect(rest.elapsed < .seconds(10))
        }
    }

    @Test func aStalledBodyIsAnswered408AndClosed() async throws {
        try await Self.withServer { port, key, log in
            let connection = try RawConnection(port: port)
            try connection.send("POST /v1/holder/applications HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer \(key)\r\n"
                + "Content-Type: application/json\r\nContent-Length: 200\r\n\r\n{\"type\":")
            // Waits long enough for a loaded CI machine (the close follows the 408 at once; every timeout here is 1 s).
            let received = await connection.readUntilClosed(timeout: .seconds(60))
            #expect(received.closed)
            #expect(received.elapsed < .seconds(45))
            Self.expectProblem(received, status: 408, code: .requestTimeout)
            #expect(!log.all.contains { $0.contains(#""level":"error""#) }, "logged as a server error")
        }
    }

    // MARK: every answer is a problem

    @Test(arguments: [
        ("2,000 headers", "GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n"
            + (0..<2_000).map { "X-H\($0): v\r\n" }.joined() + "\r\n"),
        ("a negative Content-Length", "POST /v1/holder/applications HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: -5\r\n\r\n"),
        ("a request line that is not HTTP", "HELLO THERE\r\n\r\n"),
        ("a raw non-ASCII target", "GET /h\u{e9}alth HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"),
    ])
    func aRequestTheParserRefusesGetsAProblem(_ what: String, _ request: String) async throws {
        try await Self.withServer(timeout: .seconds(120)) { port, _, log in
            let connection = try RawConnection(port: port)
            try connection.send(request)
            let received = await connection.readUntilClosed(timeout: .seconds(20))
            #expect(received.closed, "\(what): the connection stayed open")
            Self.expectProblem(received, status: 400, code: .badRequest)
            #expect(!log.all.contains { $0.contains(#""level":"error""#) }, "\(what) was logged as a server error")
        }
    }

    @Test func aMalformedChunkedBodyIsA400ProblemNotA500() async throws {
        try await Self.withServer(timeout: .seconds(120)) { port, key, log in
            let connection = try RawConnection(port: port)
            try connection.send("POST /v1/holder/applications HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer \(key)\r\n"
                + "Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n")
            let received = await connection.readUntilClosed(timeout: .seconds(20))
            Self.expectProblem(received, status: 400, code: .badRequest)
            #expect(received.text.components(separatedBy: "HTTP/1.1 ").count == 2, "one answer, not two: \(received.text)")
            #expect(!log.all.contains { $0.contains(#""level":"error""#) }, "logged as a server error")
            #expect(log.all.contains { $0.contains(#""status":"400""#) }, "the access log says 400")
        }
    }

    @Test func aClientThatLeavesMidBodyIsNotAServerError() async throws {
        try await Self.withServer(timeout: .seconds(120)) { port, key, log in
            let connection = try RawConnection(port: port)
            try connection.send("POST /v1/holder/applications HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer \(key)\r\n"
                + "Content-Type: application/json\r\nContent-Length: 500\r\n\r\n{\"type\":")
            try await Task.sleep(for: .milliseconds(200))
            connection.close()
            // The request ends when the server sees the connection go.
            let deadline = ContinuousClock.now + .seconds(60)
            while !log.all.contains(where: { $0.contains(#""message":"request""#) }), ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(50))
            }
            let access = log.all.filter { $0.contains(#""message":"request""#) }
            #expect(access.count == 1)
            #expect(access.allSatisfy { !$0.contains(#""status":"5"#) }, "\(access)")
            #expect(!log.all.contains { $0.contains(#""level":"error""#) }, "logged as a server error")
        }
    }

    // MARK: connections per source

    @Test func oneConnectionMoreThanTheLimitIs429AndClosed() async throws {
        try await Self.withServer(timeout: .seconds(120), connections: 2) { port, _, _ in
            // The test's own HTTP client may hold one of the two places: open connections until one is refused.
            var open: [RawConnection] = []
            var refused: RawConnection.Received?
            for _ in 0..<3 where refused == nil {
                let connection = try RawConnection(port: port)
                try connection.send("GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
                let received = await connection.readResponse(timeout: .seconds(20))
                if received.status == 200 { open.append(connection) } else { refused = await Self.rest(received, of: connection) }
            }
            let answer = try #require(refused, "three connections from one source with a limit of two")
            #expect(!open.isEmpty && open.count <= 2)
            #expect(answer.closed)
            Self.expectProblem(answer, status: 429, code: .rateLimited)
            #expect(answer.text.lowercased().contains("retry-after: 1"))

            // A closed connection gives its place back, once the server has seen it close (on a loaded machine that
            // can take a while: try again until a deadline).
            open.removeFirst().close()
            let deadline = ContinuousClock.now + .seconds(30)
            var status: Int?
            repeat {
                try await Task.sleep(for: .milliseconds(200))
                let again = try RawConnection(port: port)
                try again.send("GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
                status = await again.readResponse(timeout: .seconds(20)).status
                again.close()
            } while status != 200 && ContinuousClock.now < deadline
            #expect(status == 200)
        }
    }

    /// `first` and what followed it until the connection closed.
    static func rest(_ first: RawConnection.Received, of connection: RawConnection) async -> RawConnection.Received {
        if first.closed { return first }
        let more = await connection.readUntilClosed(timeout: .seconds(20))
        return RawConnection.Received(bytes: first.bytes + more.bytes, closed: more.closed, elapsed: first.elapsed + more.elapsed)
    }

    /// The connections of an IPv6 /64 are one source, as the rate limiter groups them (`SourceKey`): a client does not
    /// get `maximum` more connections for each interface id of its block. IPv4 sources stay one per address.
    @Test func anIPv6SourceIsCountedPerSlash64LikeTheRateLimiter() throws {
        let counter = ConnectionCounter(maximum: 2, exempt: [])
        func address(_ text: String) throws -> IPAddress { try #require(IPAddress(Substring(text))) }
        #expect(counter.acquire(try address("2001:db8:1:2::1")))
        #expect(counter.acquire(try address("2001:db8:1:2:ffff:ffff:ffff:9")))
        #expect(!counter.acquire(try address("2001:db8:1:2::77")), "a third interface id of the same /64")
        #expect(counter.acquire(try address("2001:db8:1:3::1")), "the next /64 is another source")
        counter.release(try address("2001:db8:1:2::1"))
        #expect(counter.acquire(try address("2001:db8:1:2::77")), "a closed connection gives the /64 its place back")
        #expect(counter.acquire(try address("192.0.2.1")))
        #expect(counter.acquire(try address("192.0.2.1")))
        #expect(!counter.acquire(try address("::ffff:192.0.2.1")), "an IPv4-mapped address is its IPv4 address")
        #expect(counter.acquire(try address("192.0.2.2")), "IPv4 sources are one per address")
        #expect(counter.sources == 4)
    }

    @Test func aTrustedProxyIsNotLimited() async throws {
        try await Self.withServer(timeout: .seconds(120), connections: 1, trustedProxies: "127.0.0.1") { port, _, _ in
            let connections = try (0..<3).map { _ in try RawConnection(port: port) }
            for connection in connections {
                try connection.send("GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
                #expect(await connection.readResponse(timeout: .seconds(20)).status == 200)
            }
        }
    }

    /// The `Date` of an answer is the server's time when it leaves (Hummingbird's own is a once-a-second cache, up to
    /// a second late), so that devices learn their clock offset to the second.
    @Test func theDateHeaderIsTheServersClockWhenTheAnswerLeaves() async throws {
        let clock = ManualClock(Date(timeIntervalSince1970: 1_700_000_000.5))
        // The kept-alive connection outlives a loaded machine's pause between the two requests.
        try await ServerTestKit.run(.sqlite, clock: clock, testing: .live, configure: { $0.connections.idleTimeout = .seconds(300) }) { kit in
            let first = try await kit.client.execute(uri: "/health", method: .get)
            #expect(first.headers[.date] == "Tue, 14 Nov 2023 22:13:20 GMT")
            clock.advance(by: 3_600)
            let later = try await kit.client.execute(uri: "/health", method: .get)
            #expect(later.headers[.date] == "Tue, 14 Nov 2023 23:13:20 GMT")
        }
    }

    @Test func configurationIsReadFromTheEnvironment() throws {
        let defaults = try HoldfastConfiguration(environment: [:]).connections
        #expect(defaults == ConnectionConfiguration())
        #expect(defaults.headerTimeout == .seconds(5) && defaults.idleTimeout == .seconds(30))
        #expect(defaults.shutdownDeadline == .seconds(10))
        let set = try HoldfastConfiguration(environment: [
            "HOLDFAST_HEADER_TIMEOUT_SECS": "3", "HOLDFAST_BODY_IDLE_TIMEOUT_SECS": "20", "HOLDFAST_IDLE_TIMEOUT_SECS": "90",
            "HOLDFAST_MAX_CONNECTIONS_PER_SOURCE": "8", "HOLDFAST_SHUTDOWN_DEADLINE_SECS": "0",
        ]).connections
        #expect(set == ConnectionConfiguration(headerTimeout: .seconds(3), bodyIdleTimeout: .seconds(20), idleTimeout: .seconds(90),
                                               maximumConnectionsPerSource: 8, shutdownDeadline: .zero))
        for (variable, value) in [("HOLDFAST_HEADER_TIMEOUT_SECS", "0"), ("HOLDFAST_IDLE_TIMEOUT_SECS", "x"),
                                  ("HOLDFAST_MAX_CONNECTIONS_PER_SOURCE", "0"), ("HOLDFAST_SHUTDOWN_DEADLINE_SECS", "-1"),
                                  ("HOLDFAST_DATABASE_QUERY_TIMEOUT_SECS", "0"), ("HOLDFAST_DATABASE_QUERY_TIMEOUT_SECS", "301")] {
            #expect(throws: ConfigurationError.self, "\(variable)=\(value)") { try HoldfastConfiguration(environment: [variable: value]) }
        }
    }

    @Test func theDatabaseQueryDeadlineIsReadFromTheEnvironment() throws {
        #expect(try HoldfastConfiguration(environment: [:]).connections.databaseQueryTimeout == .seconds(10))
        let set = try HoldfastConfiguration(environment: ["HOLDFAST_DATABASE_QUERY_TIMEOUT_SECS": "3"]).connections
        #expect(set.databaseQueryTimeout == .seconds(3))
    }
}
