import Foundation
import HoldfastServer
import Logging
import ServerTestSupport
import SQLKit
import TestSupport
import Testing

/// `holdfast serve` as a process (README "Quick start", "Configuration"): it binds before it creates anything,
/// prints each start-up line once, and ends within its shutdown deadline with exit status 0.
@Suite(.serialized) struct ServeProcessTests {
    /// The `holdfast` executable built next to these tests.
    static func executable() throws -> URL {
        var candidates: [URL] = []
        var folder = Bundle.main.bundleURL
        for _ in 0..<3 {
            candidates.append(folder.appendingPathComponent("holdfast"))
            folder.deleteLastPathComponent()
        }
        if let argument = CommandLine.arguments.first {
            candidates.append(URL(fileURLWithPath: argument).deletingLastPathComponent().appendingPathComponent("holdfast"))
        }
        guard let found = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0.path) }) else {
            throw RawConnection.Failure(description: "no holdfast executable next to the tests (looked at \(candidates.map(\.path)))")
        }
        return found
    }

    /// A running `holdfast serve` and everything it printed so far.
    final class Server: Sendable {
        let process: ChildProcess
        let data: URL
        var output: String { process.output }

        init(port: Int, environment: [String: String] = [:]) throws {
            data = FileManager.default.temporaryDirectory.appendingPathComponent("holdfast-serve-\(UUID().uuidString)")
            var variables = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("HOLDFAST_") }
            variables["HOLDFAST_LOG_FORMAT"] = "text"
            variables.merge(environment) { _, new in new }
            process = try ChildProcess(
                executable: try ServeProcessTests.executable().path,
                arguments: ["serve", "--host", "127.0.0.1", "--port", String(port), "--data", data.path],
                environment: variables, mergeError: true)
        }

        deinit {
            if process.isRunning { process.terminate() }
            try? FileManager.default.removeItem(at: data)
        }

        /// Waits until `text` was printed or the process ended.
        func waitFor(_ text: String, timeout: Duration = .seconds(60)) async throws -> Bool {
            let deadline = ContinuousClock.now + timeout
            while ContinuousClock.now < deadline {
                if output.contains(text) { return true }
                if process.isFinished { return output.contains(text) }
                try await Task.sleep(for: .milliseconds(50))
            }
            return false
        }

        /// Waits for the process to end; nil when it is still running after `timeout`.
        func waitForExit(timeout: Duration) async throws -> Int32? {
            try await process.exit(within: timeout)
        }

        var bootstrapKey: String? {
            output.split(separator: "\n").first { $0.hasPrefix("bootstrap admin key: ") }
                .map { String($0.dropFirst("bootstrap admin key: ".count)) }
        }
    }

    /// A data folder holding a new tenant (`holdfast migrate`): admin commands work on an existing tenant only.
    static func tenantFolder() async throws -> URL {
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("holdfast-cli-\(UUID().uuidString)")
        let migrated = try await run(["migrate", "--data", data.path])
        guard migrated.status == 0 else { throw RawConnection.Failure(description: "holdfast migrate: \(migrated.error)") }
        return data
    }

    /// Runs `holdfast` with `arguments` to its end: exit status, standard output, standard error.
    static func run(_ arguments: [String], environment: [String: String] = [:]) async throws -> (status: Int32, output: String, error: String) {
        let result = try await ChildProcess.run(
            executable: try executable().path, arguments: arguments,
            environment: ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("HOLDFAST_") }.merging(environment) { _, new in new })
        return (result.status, String(decoding: result.output, as: UTF8.self), String(decoding: result.error, as: UTF8.self))
    }

    /// sysexits(3): wrong data is 65 and one line naming every invalid field; a wrong command line is 64 with usage.
    @Test func aDataErrorIsOneLineWithEveryFieldAndExit65() async throws {
        let data = try await Self.tenantFolder()
        defer { try? FileManager.default.removeItem(at: data) }
        let invalid = try await Self.run(["admin", "applications", "create", "--data", data.path,
                                    "--json", #"{"type":"ios","name":"Wallet","bundleId":7}"#])
        #expect(invalid.status == 65)
        let lines = invalid.error.split(separator: "\n")
        #expect(lines.count == 1, "\(invalid.error)")
        for field in ["clientId", "bundleId", "teamId", "appAttest"] {
            #expect(invalid.error.contains(field + ":"), "\(field) missing from: \(invalid.error)")
        }
        #expect(!invalid.error.contains("DecodingError") && !invalid.error.contains("USAGE"))

        let notJSON = try await Self.run(["admin", "applications", "create", "--data", data.path, "--json", "{nope"])
        #expect(notJSON.status == 65 && notJSON.error.split(separator: "\n").count == 1, "\(notJSON.error)")

        let usage = try await Self.run(["admin", "applications", "create", "--data", data.path])
        #expect(usage.status == 64)
        #expect(usage.error.contains("Usage") || usage.error.contains("USAGE"))

        let valid = try await Self.run(["admin", "applications", "create", "--data", data.path, "--json",
                                  #"{"type":"ios","name":"Wallet","clientId":"wallet","bundleId":"com.example.wallet","teamId":"ABCDE12345","appAttest":{"required":false,"environment":"production"}}"#])
        #expect(valid.status == 0, "\(valid.error)")
    }

    /// `holdfast admin credentials iacas --json` lists the IACA made on first start; `rotate-certificates --iaca` adds one.
    @Test func theIACAsAreListedAndRotatedFromTheCommandLine() async throws {
        let data = try await Self.tenantFolder()
        defer { try? FileManager.default.removeItem(at: data) }
        struct List: Decodable { struct Item: Decodable { var id: String; var certificatePem: String; var active: Bool }; var data: [Item] }
        let listed = try await Self.run(["admin", "credentials", "iacas", "--json", "--data", data.path])
        #expect(listed.status == 0, "\(listed.error)")
        let first = try JSONDecoder().decode(List.self, from: Data(listed.output.utf8))
        #expect(first.data.count == 1 && first.data[0].active)
        #expect(first.data[0].certificatePem.hasPrefix("-----BEGIN CERTIFICATE-----"))

        let rotated = try await Self.run(["admin", "credentials", "rotate-certificates", "--iaca", "--data", data.path])
        #expect(rotated.status == 0, "\(rotated.error)")
        let second = try JSONDecoder().decode(List.self, from: Data(rotated.output.utf8))
        #expect(second.data.map(\.active) == [true, false])
        #expect(second.data.last?.id == first.data[0].id)
    }

    /// `holdfast admin sca wallets …` and `holdfast admin sca policies set @file.json` (docs/server-api.md "SCA wallet (back end)"): a wallet
    /// made, read, listed, locked, unlocked, reset and deleted on the database; policies replaced from a file.
    @Test func scaWalletsAreManagedFromTheCommandLine() async throws {
        let data = try await Self.tenantFolder()
        defer { try? FileManager.default.removeItem(at: data) }
        struct Application: Decodable { var id: String }
        struct Created: Decodable { var walletId: String; var activationCode: String }
        struct Wallet: Decodable { var id: String; var state: String; var accessProtection: String; var maxPinAttempts: Int; var lockReason: String? }
        struct Listed: Decodable { var data: [Wallet] }
        let application = try await Self.run(["admin", "applications", "create", "--data", data.path, "--json",
                                              #"{"type":"ios","name":"Bank","clientId":"bank","bundleId":"com.example.bank","teamId":"ABCDE12345","appAttest":{"required":false,"environment":"production"}}"#])
        let applicationId = try JSONDecoder().decode(Application.self, from: Data(application.output.utf8)).id
        let created = try await Self.run(["admin", "sca", "wallets", "create", "--data", data.path, "--application", applicationId,
                                          "--user", "customer-7", "--protection", "biometric", "--max-pin-attempts", "5"])
        #expect(created.status == 0, "\(created.error)")
        let wallet = try JSONDecoder().decode(Created.self, from: Data(created.output.utf8))
        #expect(wallet.activationCode.count == 19, "16 digits in groups of four (docs/server-api.md \"SCA wallet (back end)\")")
        func state(_ arguments: [String]) async throws -> Wallet {
            let answer = try await Self.run(["admin", "sca", "wallets"] + arguments + ["--data", data.path])
            #expect(answer.status == 0, "\(arguments) \(answer.error)")
            return try JSONDecoder().decode(Wallet.self, from: Data(answer.output.utf8))
        }
        let read = try await state(["get", wallet.walletId])
        #expect(read.state == "pending" && read.accessProtection == "biometric" && read.maxPinAttempts == 5)
        let listed = try await Self.run(["admin", "sca", "wallets", "list", "--user", "customer-7", "--data", data.path])
        #expect(try JSONDecoder().decode(Listed.self, from: Data(listed.output.utf8)).data.map(\.id) == [wallet.walletId])
        // A wallet not yet activated cannot be locked; deleting it is allowed.
        let refused = try await Self.run(["admin", "sca", "wallets", "lock", wallet.walletId, "--reason", "LOST_DEVICE", "--data", data.path])
        #expect(refused.status != 0 && refused.error.contains("pending"))
        #expect(try await state(["delete", wallet.walletId]).state == "deleted")
        let unknown = try await Self.run(["admin", "sca", "wallets", "get", UUID().uuidString.lowercased(), "--data", data.path])
        #expect(unknown.status != 0 && unknown.error.contains("no SCA wallet"))

        let file = data.appendingPathComponent("policies.json")
        try FileManager.default.createDirectory(at: data, withIntermediateDirectories: true)
        try Data(#"[{"method":"POST","pathTemplate":"/v1/beneficiaries","signedFields":"all","requiredPatterns":["pin"]}]"#.utf8).write(to: file)
        let policies = try await Self.run(["admin", "sca", "policies", "set", "@" + file.path, "--data", data.path])
        #expect(policies.status == 0 && policies.output.contains("/v1/beneficiaries"), "\(policies.error)")
        try Data(#"[{"method":"TRACE","pathTemplate":"x","signedFields":"all","requiredPatterns":[]}]"#.utf8).write(to: file)
        let invalid = try await Self.run(["admin", "sca", "policies", "set", "@" + file.path, "--data", data.path])
        #expect(invalid.status != 0 && invalid.error.contains("pathTemplate"))

        try Data(#"{"blockedDeviceModels":["iPhone9,1"],"minimumAppVersions":[{"version":"2.5","sunsetAt":"2030-01-01T00:00:00Z"}]}"#.utf8)
            .write(to: file)
        let rules = try await Self.run(["admin", "sca", "eligibility", "set", "@" + file.path, "--data", data.path])
        #expect(rules.status == 0 && rules.output.contains("iPhone9,1") && rules.output.contains("2030-01-01T00:00:00Z"), "\(rules.error)")
        #expect(try await Self.run(["admin", "sca", "eligibility", "get", "--data", data.path]).output.contains("2.5"))
        try Data(#"{"blockedDeviceModels":[],"minimumAppVersions":[{"version":"v2"}]}"#.utf8).write(to: file)
        let badRules = try await Self.run(["admin", "sca", "eligibility", "set", "@" + file.path, "--data", data.path])
        #expect(badRules.status != 0 && badRules.error.contains("minimumAppVersions[0].version"), "\(badRules.error)")
        let noDenial = try await Self.run(["admin", "sca", "eligibility", "denial", "DEN-unknown", "--data", data.path])
        #expect(noDenial.status != 0 && noDenial.error.contains("no eligibility denial"))
    }

    /// `holdfast admin presentations create|result` (docs/command-line.md "The `holdfast` command"): a session on the database,
    /// its authorization request URI, and its result.
    @Test func presentationSessionsAreMadeFromTheCommandLine() async throws {
        let data = try await Self.tenantFolder()
        defer { try? FileManager.default.removeItem(at: data) }
        struct Created: Decodable { var sessionId: String; var authorizationRequestUri: String; var requestUri: String }
        let created = try await Self.run(["admin", "presentations", "create", "--data", data.path, "--doc-type", "org.iso.18013.5.1.mDL",
                                          "--element", "org.iso.18013.5.1:family_name,org.iso.18013.5.1:age_over_18!", "--qr"])
        #expect(created.status == 0, "\(created.error)")
        // The JSON object alone on standard output (`| jq` reads it), the QR code on standard error.
        let session = try JSONDecoder().decode(Created.self, from: Data(created.output.utf8))
        #expect(created.error.contains("▀") && !created.output.contains("▀"))
        #expect(session.authorizationRequestUri.hasPrefix("openid4vp://?client_id=x509_hash%3A"))
        #expect(session.requestUri == "http://127.0.0.1:8080/v2/presentations/sessions/\(session.sessionId)/request")
        let result = try await Self.run(["admin", "presentations", "result", session.sessionId, "--data", data.path])
        #expect(result.status == 0 && result.output.contains(#""status" : "pending""#), "\(result.output) \(result.error)")
        // 18013-7:2024 needs a DNS host; the default public URL is an IP literal.
        let refused = try await Self.run(["admin", "presentations", "create", "--data", data.path, "--protocol", "18013-7-2024",
                                          "--doc-type", "org.iso.18013.5.1.mDL", "--element", "org.iso.18013.5.1:family_name"])
        #expect(refused.status != 0 && refused.error.contains("x509_san_dns"), "\(refused.error)")
        let malformed = try await Self.run(["admin", "presentations", "create", "--data", data.path, "--doc-type", "d", "--element", "nocolon"])
        #expect(malformed.status == 64)
    }

    /// An admin command on a PostgreSQL database no server has prepared (docs/command-line.md "The `holdfast` command"): 65 with
    /// `TENANT_NOT_FOUND` and the way to the right one, and no table made there; `holdfast migrate` makes a tenant.
    @Test(.enabled(if: TestEnvironment.postgresURL != nil, "PostgreSQL variant skipped: HOLDFAST_TEST_POSTGRES_URL is not set"))
    func anAdminCommandOnADatabaseWithoutATenantCreatesNothing() async throws {
        let baseURL = try #require(TestEnvironment.postgresURL)
        try await PostgresTestDatabase.with(baseURL: baseURL) { url in
            let environment = ["HOLDFAST_DATABASE_URL": url, "HOLDFAST_LOG_LEVEL": "error"]
            let refused = try await Self.run(["admin", "applications", "list"], environment: environment)
            #expect(refused.status == 65, "\(refused.error)")
            #expect(refused.error.hasPrefix("error: no Holdfast tenant in postgresql ") && refused.error.contains("HOLDFAST_DATABASE_URL")
                    && refused.error.hasSuffix("(TENANT_NOT_FOUND)\n"), "\(refused.error)")
            var quiet = Logger(label: "holdfast.test.no-tenant")
            quiet.logLevel = .critical
            let database = try HoldfastDatabase.open(.postgres(url: url), logger: quiet)
            let row = try await database.sql.raw("""
                SELECT count(*) AS n FROM information_schema.tables WHERE table_schema = current_schema()
                """).first()
            #expect(try #require(row).decode(column: "n", as: Int.self) == 0)
            await database.close()
            #expect(try await Self.run(["migrate"], environment: environment).status == 0)
            let listed = try await Self.run(["admin", "applications", "list"], environment: environment)
            #expect(listed.status == 0, "\(listed.error)")
        }
    }

    @Test func aTakenPortIsReportedBeforeAnythingIsCreated() async throws {
        let port = try RawConnection.freePort()
        let first = try Server(port: port)
        #expect(try await first.waitFor("listening on"))
        let second = try Server(port: port)
        let status = try await second.waitForExit(timeout: .seconds(60))
        #expect(status != nil && status != 0)
        #expect(second.output.contains("cannot listen on 127.0.0.1:\(port)"), "\(second.output)")
        #expect(!second.output.contains("bootstrap admin key"))
        #expect(!FileManager.default.fileExists(atPath: second.data.appendingPathComponent("holdfast.sqlite").path))
        // The same folder on a free port: the key is shown then, once.
        first.process.terminate()
        _ = try await first.waitForExit(timeout: .seconds(30))
        let third = try Server(port: port, environment: [:])
        defer { third.process.terminate() }
        #expect(try await third.waitFor("listening on"))
        #expect(third.bootstrapKey != nil)
    }

    /// SIGTERM is logged when the shutdown starts and once more with its outcome (docs/command-line.md "The `holdfast` command").
    /// Before it, the verifier page of this tenant — public URL `http://127.0.0.1:PORT`, an IP literal — offers
    /// 18013-7:2024 disabled with the reason (docs/server-api.md "Verifier page"); with `localhost` it is offered.
    @Test func sigtermIsLoggedWithItsOutcomeAndThePageKnowsItsHost() async throws {
        func page(_ port: Int) async throws -> String {
            let connection = try RawConnection(port: port)
            try connection.send("GET /verifier HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
            return String(decoding: await connection.readUntilClosed(timeout: .seconds(30)).bytes, as: UTF8.self)
        }
        let port = try RawConnection.freePort()
        let server = try Server(port: port)
        #expect(try await server.waitFor("listening on"))
        let literal = try await page(port)
        #expect(literal.contains(#"<option value="18013-7-2024" disabled>"#) && literal.contains("needs a DNS name"), "\(literal.suffix(1_500))")
        server.process.terminate()
        #expect(try await server.waitForExit(timeout: .seconds(30)) == 0)
        let lines = server.output.split(separator: "\n")
        let started = lines.firstIndex { $0.contains("shutting down") }
        let ended = lines.firstIndex { $0.contains("shut down") && $0.contains("every request finished before the deadline") }
        #expect(started != nil && ended != nil && started! < ended!, "\(server.output.suffix(2_000))")

        let named = try Server(port: port, environment: ["HOLDFAST_PUBLIC_URL": "http://localhost:\(port)"])
        defer { named.process.terminate() }
        #expect(try await named.waitFor("listening on"))
        let dns = try await page(port)
        #expect(dns.contains(#"<option value="18013-7-2024">"#) && !dns.contains("needs a DNS name"), "\(dns.suffix(1_500))")
    }

    @Test func eachStartUpLineIsPrintedOnce() async throws {
        let server = try Server(port: try RawConnection.freePort())
        defer { server.process.terminate() }
        #expect(try await server.waitFor("listening on"))
        let lines = server.output.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        for prefix in ["database:", "ephemeral store:", "tenant signing key:", "bootstrap admin key:", "listening on"] {
            #expect(lines.filter { $0.hasPrefix(prefix) }.count == 1, "\(prefix) printed \(lines.filter { $0.hasPrefix(prefix) }.count) times")
        }
        // The migrations of a fresh tenant are one line, not one each, so the bootstrap admin key is not buried.
        let count = HoldfastMigrations.all.count
        #expect(lines.filter { $0.contains("applied migrations") && $0.contains("count=\(count)") }.count == 1, "\(server.output)")
        #expect(!lines.contains { $0.contains("applied migration ") }, "\(server.output)")
    }

    @Test func sigtermWithAStalledRequestAndAHalfHeadExitsZeroWithinTheDeadline() async throws {
        let port = try RawConnection.freePort()
        // A body idle timeout far beyond the deadline, so that only the deadline can end the stalled request.
        let server = try Server(port: port, environment: ["HOLDFAST_SHUTDOWN_DEADLINE_SECS": "2",
                                                          "HOLDFAST_BODY_IDLE_TIMEOUT_SECS": "600",
                                                          "HOLDFAST_HEADER_TIMEOUT_SECS": "600"])
        #expect(try await server.waitFor("listening on"))
        let key = try #require(server.bootstrapKey)
        let stalled = try RawConnection(port: port)
        try stalled.send("POST /v1/holder/applications HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer \(key)\r\n"
            + "Content-Type: application/json\r\nContent-Length: 300\r\n\r\n{\"type\":")
        let halfHead = try RawConnection(port: port)
        try halfHead.send("GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        try await Task.sleep(for: .milliseconds(500))

        let signalled = ContinuousClock.now
        server.process.terminate()
        let status = try await server.waitForExit(timeout: .seconds(30))
        let took = ContinuousClock.now - signalled
        #expect(status == 0, "exit status \(String(describing: status)); output:\n\(server.output.suffix(2_000))")
        // The deadline closed the connections; the watchdog (deadline + 1 s) was not needed; never the 600 s of
        // the timeouts.
        #expect(took < .seconds(6), "shutdown took \(took)")
        #expect(!server.output.contains("shutdown did not finish"), "\(server.output.suffix(2_000))")
        // At the deadline the guard closes the connections and the handlers still running are cancelled; which of
        // the two reaches the stalled request first is a matter of scheduling, and either ends it.
        #expect(server.output.contains("closing a connection at the shutdown deadline")
                || server.output.contains("request cancelled at the shutdown deadline"), "\(server.output.suffix(2_000))")
        #expect(!server.output.contains("internal error"), "\(server.output.suffix(2_000))")
    }

    /// At the deadline a request still running is answered `503 SERVICE_UNAVAILABLE` with `Connection: close`, its
    /// query cancelled at PostgreSQL and its transaction rolled back, never committed after its client was cut off:
    /// a `PUT /v1/sca/policies` whose transaction waits on a table another session holds locked gets its 503, the
    /// process exits (status 0) while the lock is still held, no backend of it is left queued on the lock, and once
    /// the lock is let go nothing has changed.
    @Test(.enabled(if: TestEnvironment.postgresURL != nil, "PostgreSQL variant skipped: HOLDFAST_TEST_POSTGRES_URL is not set"))
    func aRequestStillRunningAtTheDeadlineIsCancelledAndNeverCommits() async throws {
        let baseURL = try #require(TestEnvironment.postgresURL)
        try await PostgresTestDatabase.with(baseURL: baseURL) { url in
            let port = try RawConnection.freePort()
            let server = try Server(port: port, environment: ["HOLDFAST_DATABASE_URL": url, "HOLDFAST_SHUTDOWN_DEADLINE_SECS": "2"])
            #expect(try await server.waitFor("listening on"))
            let key = try #require(server.bootstrapKey)
            var quiet = Logger(label: "holdfast.test.shutdown")
            quiet.logLevel = .critical
            // The holder's own session waits as long as the test needs, beyond any query deadline.
            let database = try HoldfastDatabase.open(.postgres(url: url), logger: quiet, queryTimeout: .seconds(120))
            let (locked, lockedSignal) = AsyncStream<Void>.makeStream()
            let (release, releaseSignal) = AsyncStream<Void>.makeStream()
            defer { releaseSignal.finish() }
            // Another session holds the policies table: the server's transaction waits on it.
            let holder = Task {
                try await database.transaction { session in
                    try await session.raw("LOCK TABLE sca_policies IN ACCESS EXCLUSIVE MODE").run()
                    lockedSignal.yield()
                    for await _ in release { break }
                }
            }
            for await _ in locked { break }
            let body = #"[{"method":"DELETE","pathTemplate":"/v1/cards/{cardId}","signedFields":"all","requiredPatterns":["pin"]}]"#
            let request = try RawConnection(port: port)
            try request.send("PUT /v1/sca/policies HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer \(key)\r\n"
                + "Content-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)")
            // The server's statement waits for the lock.
            var waiting = 0
            for _ in 0..<600 where waiting == 0 {
                let row = try await database.sql.raw("""
                    SELECT count(*) AS n FROM pg_locks
                    WHERE NOT granted AND database = (SELECT oid FROM pg_database WHERE datname = current_database())
                    """).first()
                waiting = try #require(row).decode(column: "n", as: Int.self)
                if waiting == 0 { try await Task.sleep(for: .milliseconds(50)) }
            }
            #expect(waiting > 0)

            server.process.terminate()
            let answer = await request.readUntilClosed(timeout: .seconds(30))
            let text = String(decoding: answer.bytes, as: UTF8.self)
            #expect(text.hasPrefix("HTTP/1.1 503"), "\(text)")
            #expect(text.contains("SERVICE_UNAVAILABLE"), "\(text)")
            #expect(text.lowercased().contains("connection: close"), "\(text)")
            #expect(answer.closed)
            // The node exits while the lock is still held: the stuck handler did not keep it.
            let status = try await server.waitForExit(timeout: .seconds(30))
            #expect(status == 0, "exit status \(String(describing: status)); output:\n\(server.output.suffix(2_000))")
            #expect(server.output.contains("closing a connection at the shutdown deadline"), "\(server.output.suffix(2_000))")
            // Its query was cancelled at PostgreSQL: nothing waits on the lock any more.
            var stillWaiting = 1
            for _ in 0..<50 where stillWaiting > 0 {
                let row = try await database.sql.raw("""
                    SELECT count(*) AS n FROM pg_locks
                    WHERE NOT granted AND database = (SELECT oid FROM pg_database WHERE datname = current_database())
                    """).first()
                stillWaiting = try #require(row).decode(column: "n", as: Int.self)
                if stillWaiting > 0 { try await Task.sleep(for: .milliseconds(100)) }
            }
            #expect(stillWaiting == 0, "the exited node's backend is still queued on the lock")
            // The lock is let go: the handler, cancelled, rolled back rather than committed.
            releaseSignal.yield()
            try await holder.value
            let row = try await database.sql.raw("SELECT count(*) AS n FROM sca_policies").first()
            #expect(try #require(row).decode(column: "n", as: Int.self) == 0, "the cancelled request committed its policies; output:\n\(server.output.suffix(3_000))")
            await database.close()
        }
    }
}
