import Foundation
@testable import holdfast
import Testing
import TestSupport

/// docs/command-line.md "Exit codes": every failure but a usage error is one line on standard error, `error: <message> (<CODE>)`,
/// and its exit status comes from one table: 64 usage, 65 data, 69 unavailable, 1 anything else.
@Suite(.serialized) struct ExitCodeTests {
    /// The `holdfast` executable built next to these tests.
    static func executable() throws -> String {
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
            throw TestSupportError("no holdfast executable next to the tests (looked at \(candidates.map(\.path)))")
        }
        return found.path
    }

    struct Run {
        let status: Int32
        let output: String
        let error: String

        /// The lines on standard error.
        var errorLines: [Substring] { error.split(separator: "\n") }
    }

    /// Runs `holdfast` to its end with only `environment` of the HOLDFAST_ variables.
    static func run(_ arguments: [String], environment: [String: String] = [:]) async throws -> Run {
        var variables = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("HOLDFAST_") }
        variables.merge(environment) { _, new in new }
        let result = try await ChildProcess.run(executable: try executable(), arguments: arguments, environment: variables)
        return Run(status: result.status, output: String(decoding: result.output, as: UTF8.self),
                   error: String(decoding: result.error, as: UTF8.self))
    }

    static func temporaryFolder() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("holdfast-exit-\(UUID().uuidString)")
    }

    /// A data folder holding a new tenant (`holdfast migrate`), for the admin commands.
    static func tenantFolder() async throws -> URL {
        let data = temporaryFolder()
        let migrated = try await run(["migrate", "--data", data.path])
        guard migrated.status == 0 else { throw TestSupportError("holdfast migrate: \(migrated.error)") }
        return data
    }

    // MARK: The table

    @Test func problemsMapByTheirHTTPStatus() {
        #expect(ExitStatus(problemStatus: 400) == .dataError)
        #expect(ExitStatus(problemStatus: 404) == .dataError)
        #expect(ExitStatus(problemStatus: 409) == .dataError)
        #expect(ExitStatus(problemStatus: 429) == .unavailable)
        #expect(ExitStatus(problemStatus: 503) == .unavailable)
        #expect(ExitStatus(problemStatus: 500) == .failure)
        #expect(ExitStatus.allCases.map(\.rawValue) == [1, 64, 65, 69])
    }

    @Test func sdkErrorsMapByAnswerOrByCode() {
        #expect(ExitStatus(code: "NETWORK_ERROR", httpStatus: nil) == .unavailable)
        #expect(ExitStatus(code: "APPLICATION_NOT_FOUND", httpStatus: 404) == .dataError)
        #expect(ExitStatus(code: "CREDENTIAL_OFFER_INVALID", httpStatus: 502) == .unavailable)
        #expect(ExitStatus(code: "VALIDATION_FAILED", httpStatus: nil) == .dataError)
        #expect(ExitStatus(code: "NOT_REGISTERED", httpStatus: nil) == .failure)
    }

    @Test func theLineIsErrorMessageAndCode() {
        #expect(CommandFailure(.dataError, "not a valid claims value: x: required", code: "VALIDATION_FAILED").line
                == "error: not a valid claims value: x: required (VALIDATION_FAILED)")
        #expect(CommandFailure(.failure, "something broke").line == "error: something broke")
    }

    @Test func jsonIsTextAtFileOrDashForStandardInput() {
        #expect(JSONInput(argument: #"{"a":1}"#).source == .text(#"{"a":1}"#))
        #expect(JSONInput(argument: "@/tmp/a.json").source == .file(path: "/tmp/a.json"))
        #expect(JSONInput(argument: "-").source == .standardInput)
    }

    // MARK: The process

    /// JSON that is not JSON: 65, one line, nothing on standard output, no usage.
    @Test func badJSONIsADataError() async throws {
        let data = Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: data) }
        for spelling in [["{nope"], ["--json", "{nope"]] {
            let run = try await Self.run(["admin", "applications", "create", "--data", data.path] + spelling)
            #expect(run.status == 65, "\(spelling): \(run.error)")
            #expect(run.errorLines.count == 1 && run.error.hasPrefix("error: ") && run.error.contains("(INVALID_JSON)"), "\(run.error)")
            #expect(run.output.isEmpty && !run.error.contains("Usage") && !run.error.contains("USAGE"))
        }
        let missing = try await Self.run(["admin", "sca", "policies", "set", "@" + data.appendingPathComponent("absent.json").path,
                                          "--data", data.path])
        #expect(missing.status == 65 && missing.errorLines.count == 1 && missing.error.hasPrefix("error: cannot read "), "\(missing.error)")
    }

    /// A refusal by the server's services (the admin commands call them on the database): 65, one line with the code.
    @Test func aServerProblemIsADataError() async throws {
        let data = try await Self.tenantFolder()
        defer { try? FileManager.default.removeItem(at: data) }
        let unknown = try await Self.run(["admin", "sca", "wallets", "get", UUID().uuidString.lowercased(), "--data", data.path])
        #expect(unknown.status == 65, "\(unknown.error)")
        #expect(unknown.errorLines.count == 1 && unknown.error.hasPrefix("error: no SCA wallet") && unknown.error.hasSuffix(")\n"),
                "\(unknown.error)")
    }

    /// An admin command on a data folder that holds no tenant (docs/command-line.md "The `holdfast` command"): 65, one line that
    /// names what it looked at and how to point at the right one (`--data`, `HOLDFAST_DATABASE_URL`), nothing on
    /// standard output, and nothing created — not the folder, not a database. `holdfast migrate` makes one.
    @Test func anAdminCommandOnAFolderWithoutATenantCreatesNothing() async throws {
        let data = Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: data) }
        let database = data.appendingPathComponent("holdfast.sqlite").path
        for command in [["applications", "list"], ["applications", "create", #"{"type":"ios","name":"Wallet","clientId":"wallet","bundleId":"com.example.wallet","teamId":"ABCDE12345","appAttest":{"required":false,"environment":"production"}}"#], ["keys", "list"],
                        ["instances", "list", "--application", "a"], ["credentials", "iacas"], ["credentials", "list"],
                        ["presentations", "result", "s"], ["sca", "eligibility", "get"]] {
            let run = try await Self.run(["admin"] + command + ["--data", data.path])
            #expect(run.status == 65, "\(command): \(run.error)")
            #expect(run.errorLines.count == 1 && run.error.hasPrefix("error: no Holdfast tenant in sqlite \(database): ")
                    && run.error.contains("--data") && run.error.contains("HOLDFAST_DATABASE_URL")
                    && run.error.hasSuffix("(TENANT_NOT_FOUND)\n"), "\(command): \(run.error)")
            #expect(run.output.isEmpty, "\(command): \(run.output)")
            #expect(!FileManager.default.fileExists(atPath: data.path), "\(command) created \(data.path)")
        }
        // HOLDFAST_DATA names the folder as --data does.
        let byVariable = try await Self.run(["admin", "applications", "list"], environment: ["HOLDFAST_DATA": data.path])
        #expect(byVariable.status == 65 && byVariable.error.hasSuffix("(TENANT_NOT_FOUND)\n"), "\(byVariable.error)")
        #expect(!FileManager.default.fileExists(atPath: data.path))
        // An SQLite file no server has prepared holds no tenant either.
        try FileManager.default.createDirectory(at: data, withIntermediateDirectories: true)
        #expect(FileManager.default.createFile(atPath: database, contents: Data()))
        let empty = try await Self.run(["admin", "applications", "list", "--data", data.path])
        #expect(empty.status == 65 && empty.error.hasSuffix("(TENANT_NOT_FOUND)\n"), "\(empty.error)")
        #expect(!FileManager.default.fileExists(atPath: data.appendingPathComponent("master.key").path))

        let migrated = try await Self.run(["migrate", "--data", data.path])
        #expect(migrated.status == 0, "\(migrated.error)")
        let listed = try await Self.run(["admin", "applications", "list", "--data", data.path])
        #expect(listed.status == 0, "\(listed.error)")
        #expect(listed.output.contains(#""data""#), "\(listed.output)")
    }

    /// A tenant that answers a problem (`holdfast serve` here, an application it does not know): 65, the device's
    /// one failure object on standard output, one line on standard error.
    @Test func aTenantsProblemAnswerIsADataErrorForTheDevice() async throws {
        let data = Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: data) }
        var variables = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("HOLDFAST_") }
        variables["HOLDFAST_LOG_FORMAT"] = "text"
        let server = try ChildProcess(executable: try Self.executable(),
                                      arguments: ["serve", "--host", "127.0.0.1", "--port", "0", "--data", data.appendingPathComponent("tenant").path],
                                      environment: variables, mergeError: true)
        defer { if server.isRunning { server.terminate() } }
        var url: String?
        while url == nil, !server.isFinished {
            url = server.output.split(separator: "\n").first { $0.hasPrefix("listening on ") }.map { String($0.dropFirst("listening on ".count)) }
            if url == nil { try await Task.sleep(for: .milliseconds(50)) }
        }
        let tenant = try #require(url, "\(server.output)")
        let run = try await Self.run(["device", "--state", data.appendingPathComponent("device").path, "register",
                                      "--tenant", tenant, "--application", UUID().uuidString.lowercased()])
        #expect(run.status == 65, "\(run.output) \(run.error)")
        #expect(run.errorLines.count == 1 && run.error.hasPrefix("error: device register: ") && run.error.hasSuffix("(APPLICATION_NOT_FOUND)\n"),
                "\(run.error)")
        let failure = try JSONSerialization.jsonObject(with: Data(run.output.utf8)) as? [String: Any]
        #expect(failure?["ok"] as? Bool == false && failure?["command"] as? String == "register")
        let detail = failure?["error"] as? [String: Any]
        #expect(detail?["code"] as? String == "APPLICATION_NOT_FOUND" && detail?["httpStatus"] as? Int == 404)
    }

    /// A database that cannot be reached: 69, one line.
    @Test func anUnreachableDatabaseIsUnavailable() async throws {
        let data = Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: data) }
        let run = try await Self.run(["admin", "applications", "list", "--data", data.path],
                                     environment: ["HOLDFAST_DATABASE_URL": "postgres://holdfast@127.0.0.1:1/holdfast",
                                                   "HOLDFAST_DATABASE_WAIT_TIMEOUT_SECS": "1"])
        #expect(run.status == 69, "\(run.error)")
        // The one failure line comes last; the database pool's own log records (HOLDFAST_LOG_FORMAT) may come before it.
        let failures = run.errorLines.filter { $0.hasPrefix("error: ") }
        #expect(failures.count == 1 && failures.last == run.errorLines.last && run.error.hasSuffix("(DATABASE_UNAVAILABLE)\n"),
                "\(run.error)")
        #expect(run.errorLines.dropLast().allSatisfy { $0.hasPrefix("{") }, "\(run.error)")
    }

    /// A tenant or issuer that cannot be reached: 69, the device's one failure object, one line.
    @Test func anUnreachableIssuerIsUnavailableForTheDevice() async throws {
        let data = Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: data) }
        let offer = "openid-credential-offer://?credential_offer_uri=" + "http://127.0.0.1:1/offer"
            .addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
        let run = try await Self.run(["device", "--state", data.path, "offer", offer])
        #expect(run.status == 69, "\(run.output) \(run.error)")
        #expect(run.errorLines.count == 1 && run.error.hasPrefix("error: device offer: ") && run.error.hasSuffix("(NETWORK_ERROR)\n"),
                "\(run.error)")
        let failure = try JSONSerialization.jsonObject(with: Data(run.output.utf8)) as? [String: Any]
        #expect(failure?["ok"] as? Bool == false && failure?["command"] as? String == "offer")
        #expect((failure?["error"] as? [String: Any])?["code"] as? String == "NETWORK_ERROR")
    }

    /// A missing required option: 64 with the usage, from the parser.
    @Test func aMissingRequiredOptionIsAUsageError() async throws {
        let data = Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: data) }
        for arguments in [["admin", "instances", "list", "--data", data.path],
                          ["device", "--state", data.path, "status"],
                          ["device", "--state", data.path, "register", "--application", "a"],
                          ["device", "--state", data.path, "sca", "status"]] {
            let run = try await Self.run(arguments)
            #expect(run.status == 64, "\(arguments): \(run.error)")
            #expect(run.error.contains("Missing expected argument") && (run.error.contains("Usage") || run.error.contains("USAGE")),
                    "\(arguments): \(run.error)")
        }
    }
}
