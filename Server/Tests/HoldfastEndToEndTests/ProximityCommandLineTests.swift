import Crypto
import Foundation
import HoldfastProtocol
import JOSE
import ServerTestSupport
import SwiftASN1
import Testing
import TestSupport
import X509

/// In-person presentation from the command line (docs/command-line.md "The `holdfast` command"; ISO/IEC 18013-5 §8–9):
/// `holdfast device … present-proximity` and `holdfast reader` as two processes that find each other from the holder's
/// `mdoc:` line alone, against a `holdfast serve` that issued the mDL and serves its status list — verified, declined,
/// a docType not held, untrusted and trusted readers, a revoked credential, and the reader's usage errors.
@Suite(.serialized) struct ProximityCommandLineTests {
    static let docType = "org.iso.18013.5.1.mDL"
    static let elements = "org.iso.18013.5.1:family_name,org.iso.18013.5.1:age_over_18"

    struct Failure: Error, CustomStringConvertible { let description: String }

    /// A tenant (`holdfast serve`) whose mDL (family_name, given_name, birth_date, age_over_18) a device holds, and the
    /// tenant's IACAs as PEM in a file.
    struct Tenant {
        let server: ServeProcessTests.Server
        let data: [String]
        let work: URL
        let device: [String]
        let iacaFile: URL
        /// `--tenant URL --application ID`: the device's commands run tethered.
        let tethered: [String]

        func stop() {
            server.process.terminate()
            try? FileManager.default.removeItem(at: work)
        }

        /// The reader's arguments for `elements` of `docType`, trusting the tenant's IACAs.
        func reader(_ engagement: String, docType: String = ProximityCommandLineTests.docType,
                    elements: String = ProximityCommandLineTests.elements) -> [String] {
            ["reader", "--engagement", engagement, "--doctype", docType, "--elements", elements, "--iaca", "@" + iacaFile.path]
        }
    }

    struct Identified: Decodable { var id: String }
    struct Offer: Decodable { var offerUri: String }
    struct Page: Decodable { struct Issued: Decodable { var id: String }; var data: [Issued] }

    static func tenant() async throws -> Tenant {
        let port = try RawConnection.freePort()
        let server = try ServeProcessTests.Server(port: port)
        #expect(try await server.waitFor("listening on"))
        let url = "http://127.0.0.1:\(port)"
        let data = ["--data", server.data.path]
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("holdfast-proximity-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        let application = try await Self.json(Identified.self, ["admin", "applications", "create",
                                                                                  CommandLineTenantTests.application] + data)
        _ = try await Self.json(Identified.self, ["admin", "credentials", "configurations", "create",
                                                                    CredentialsEndToEndTests.configuration] + data)
        let offer = try await Self.json(Offer.self, ["admin", "credentials", "offer", "--configuration", "mdl",
                                                                       "--claims", CredentialsEndToEndTests.claims] + data)
        let iacas = try await Self.run(["admin", "credentials", "iacas"] + data)
        #expect(iacas.status == 0, "\(iacas.error)")
        let iacaFile = work.appendingPathComponent("iacas.pem")
        try Data(iacas.output.utf8).write(to: iacaFile)
        let device = ["device", "--state", work.appendingPathComponent("phone").path]
        let trusted = try await Self.run(device + ["issuers", "add", "@" + iacaFile.path])
        #expect(trusted.status == 0, "\(trusted.output) \(trusted.error)")
        let claimed = try await Self.run(device + ["claim", offer.offerUri, "--yes", "--tenant", url, "--application", application.id])
        #expect(claimed.status == 0, "\(claimed.output) \(claimed.error)")
        return Tenant(server: server, data: data, work: work, device: device, iacaFile: iacaFile,
                      tethered: ["--tenant", url, "--application", application.id])
    }

    static var environment: [String: String] { ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("HOLDFAST_") } }

    /// Starts `holdfast device … present-proximity EXTRA` and waits (a minute at most) for its first line, the engagement.
    /// The caller kills the process in a `defer` (`stop`).
    static func present(_ tenant: Tenant, _ extra: [String]) async throws -> (holder: ChildProcess, engagement: String) {
        let holder = try ChildProcess(executable: try ServeProcessTests.executable().path,
                                      arguments: tenant.device + ["present-proximity"] + extra, environment: environment)
        let deadline = ContinuousClock.now + .seconds(60)
        while ContinuousClock.now < deadline {
            let output = holder.output
            if let newline = output.firstIndex(of: "\n") { return (holder, String(output[..<newline])) }
            if holder.isFinished { break }
            try await Task.sleep(for: .milliseconds(20))
        }
        stop(holder)
        throw Failure(description: "present-proximity printed no line: \(holder.output) \(holder.error)")
    }

    /// Never leaves a child running.
    static func stop(_ process: ChildProcess) {
        if process.isRunning { process.terminate(signal: SIGKILL) }
    }

    /// Runs `holdfast ARGUMENTS` to its end, killed (and the test failed) after two minutes.
    static func run(_ arguments: [String]) async throws -> (status: Int32, output: String, error: String) {
        let process = try ChildProcess(executable: try ServeProcessTests.executable().path, arguments: arguments, environment: environment)
        defer { stop(process) }
        guard let status = try await process.exit(within: .seconds(120)) else {
            throw Failure(description: "holdfast \(arguments.prefix(2)) did not end: \(process.output) \(process.error)")
        }
        return (status, process.output, process.error)
    }

    /// Runs `holdfast ARGUMENTS` (`run`), requires exit 0, and decodes its JSON output as `T`.
    static func json<T: Decodable>(_ type: T.Type, _ arguments: [String]) async throws -> T {
        let run = try await run(arguments)
        guard run.status == 0 else { throw Failure(description: "\(arguments.prefix(4)): exit \(run.status): \(run.error)") }
        return try JSONDecoder().decode(T.self, from: Data(run.output.utf8))
    }

    /// The holder's exit status once it ended (a minute at most), and its lines.
    static func ended(_ holder: ChildProcess) async throws -> (status: Int32, lines: [String], error: String) {
        guard let status = try await holder.exit(within: .seconds(60)) else {
            stop(holder)
            throw Failure(description: "present-proximity did not end: \(holder.output) \(holder.error)")
        }
        return (status, holder.output.split(separator: "\n").map(String.init), holder.error)
    }

    /// The reader's standard output, the tenant verifier's `PresentationResult`.
    static func result(_ output: String) throws -> PresentationResult {
        try HoldfastJSON.decode(PresentationResult.self, from: Data(output.utf8))
    }

    static func codes(_ result: PresentationResult) -> [String] { (result.failures ?? []).map(\.code.rawValue) }

    @Test func theReaderVerifiesWhatTheDeviceSendsAndTheDeviceEndsWithTheSession() async throws {
        let tenant = try await Self.tenant()
        defer { tenant.stop() }
        let (holder, engagement) = try await Self.present(tenant, ["--yes"])
        defer { Self.stop(holder) }
        #expect(engagement.hasPrefix("mdoc:") && !engagement.contains(" "), "\(engagement)")

        let read = try await Self.run(tenant.reader(engagement))
        #expect(read.status == 0, "\(read.output) \(read.error)")
        let result = try Self.result(read.output)
        #expect(result.status == .verified, "\(Self.codes(result))")
        let shown = result.claims?[Self.docType]?["org.iso.18013.5.1"]
        #expect(shown?["family_name"] == .string("Doe") && shown?["age_over_18"] == .bool(true), "\(String(describing: shown))")
        // Only what was asked: the credential's given_name and birth_date stayed on the phone.
        #expect(shown?["given_name"] == nil && shown?["birth_date"] == nil)
        #expect(result.credentials?.first?.status == .valid, "\(String(describing: result.credentials))")

        let device = try await Self.ended(holder)
        #expect(device.status == 0, "\(device.lines) \(device.error)")
        #expect(device.lines.first == engagement)
        let asked = try #require(device.lines.first { $0.hasPrefix("asked: ") }, "\(device.lines)")
        #expect(asked.contains("an unverified reader") && asked.contains("org.iso.18013.5.1/family_name")
                && asked.contains("org.iso.18013.5.1/age_over_18"), "\(asked)")
        let sent = try #require(device.lines.first { $0.hasPrefix("sent: ") }, "\(device.lines)")
        #expect(sent.contains("org.iso.18013.5.1/family_name") && sent.contains("org.iso.18013.5.1/age_over_18") && !sent.contains("given_name"),
                "\(sent)")
        #expect(device.lines.last == "ended: the reader ended the session (status 20)", "\(device.lines)")

        // Tethered (the automatic pass and the offline limit first): the engagement is still the first line.
        let (tetheredHolder, tetheredEngagement) = try await Self.present(tenant, ["--yes"] + tenant.tethered)
        defer { Self.stop(tetheredHolder) }
        #expect(tetheredEngagement.hasPrefix("mdoc:") && tetheredEngagement != engagement, "\(tetheredEngagement)")
        let tetheredRead = try await Self.run(tenant.reader(tetheredEngagement))
        #expect(tetheredRead.status == 0 && (try? Self.result(tetheredRead.output).status) == .verified, "\(tetheredRead.output) \(tetheredRead.error)")
        #expect(try await Self.ended(tetheredHolder).status == 0)

        // The engagement of a device that has gone: nothing to connect to, NETWORK_ERROR, 69.
        let gone = try await Self.run(tenant.reader(engagement))
        #expect(gone.status == 69 && gone.error.hasSuffix("(NETWORK_ERROR)\n") && gone.output.isEmpty, "\(gone.output) \(gone.error)")
    }

    @Test func aDeclinedRequestIsDeclinedAtTheReader() async throws {
        let tenant = try await Self.tenant()
        defer { tenant.stop() }
        let (holder, engagement) = try await Self.present(tenant, ["--decline"])
        defer { Self.stop(holder) }

        let read = try await Self.run(tenant.reader(engagement))
        #expect(read.status != 0, "\(read.output)")
        let result = try Self.result(read.output)
        #expect(result.status == .declined && result.claims == nil, "\(read.output)")
        #expect(read.error.contains("declined"), "\(read.error)")

        let device = try await Self.ended(holder)
        #expect(device.status == 0, "\(device.lines) \(device.error)")
        #expect(device.lines.contains("sent: nothing (declined)"), "\(device.lines)")

        // Neither --yes nor --decline: the question is asked, and no answer (here the end of input) declines.
        let (asking, askingEngagement) = try await Self.present(tenant, [])
        defer { Self.stop(asking) }
        let unanswered = try await Self.run(tenant.reader(askingEngagement))
        #expect(unanswered.status != 0 && (try? Self.result(unanswered.output).status) == .declined, "\(unanswered.output)")
        let asked = try await Self.ended(asking)
        #expect(asked.status == 0 && asked.lines.contains("sent: nothing (declined)"), "\(asked.lines) \(asked.error)")
    }

    /// An answer the device cannot make (here `--select` names no matching credential) ends the session with status 20:
    /// the reader is not left waiting, nothing is disclosed, and the device fails with the SDK's code.
    @Test func anAnswerThatCannotBeMadeEndsTheSession() async throws {
        let tenant = try await Self.tenant()
        defer { tenant.stop() }
        let (holder, engagement) = try await Self.present(tenant, ["--yes", "--select", "no-such-credential"])
        defer { Self.stop(holder) }

        let read = try await Self.run(tenant.reader(engagement))
        #expect(read.status != 0, "\(read.output)")
        let result = try Self.result(read.output)
        #expect(result.status == .declined && result.claims == nil, "\(read.output)")

        let device = try await Self.ended(holder)
        #expect(device.status == 65, "\(device.lines) \(device.error)")
        #expect(device.error.hasSuffix("\nerror: device present-proximity: credential no-such-credential answers none of the requests (VALIDATION_FAILED)\n"),
                "\(device.error)")
        #expect(device.lines.contains { $0.hasPrefix("asked: ") } && !device.lines.contains { $0.hasPrefix("sent: ") }, "\(device.lines)")
        #expect(device.lines.last == "ended: the answer could not be made; the session was ended with status 20", "\(device.lines)")
    }

    @Test func aDocTypeTheDeviceDoesNotHoldFailsWithDocumentErrors() async throws {
        let tenant = try await Self.tenant()
        defer { tenant.stop() }
        let (holder, engagement) = try await Self.present(tenant, ["--yes"])
        defer { Self.stop(holder) }

        let read = try await Self.run(tenant.reader(engagement, docType: "org.example.loyalty", elements: "org.example.loyalty:member_id"))
        #expect(read.status != 0, "\(read.output)")
        let result = try Self.result(read.output)
        // The device's documentErrors (ISO/IEC 18013-5 §8.3.2.1.2.2), and so the asked docType has no document.
        #expect(result.status == .failed && Set(Self.codes(result)) == ["DOCUMENT_ERRORS", "CREDENTIAL_MISSING"], "\(read.output)")
        #expect(result.claims == nil)

        let device = try await Self.ended(holder)
        #expect(device.status == 0, "\(device.lines) \(device.error)")
        #expect(device.lines.contains { $0.hasPrefix("sent: no document") }, "\(device.lines)")
    }

    /// A reader CA and its reader's certificate (ISO/IEC 18013-5 §9.1.4 readerAuth), as PEM files: the chain leaf first,
    /// the key PKCS#8.
    struct ReaderPKI {
        let chain: URL, key: URL, ca: URL

        init(in folder: URL) throws {
            let pki = try TestCertificateChain(caName: "Example Reader CA", leafName: "Example Reader", dnsName: "reader.example")
            let (ca, leaf, leafKey) = (pki.ca, pki.leaf, pki.leafKey)
            chain = folder.appendingPathComponent("reader-chain.pem")
            key = folder.appendingPathComponent("reader-key.pem")
            self.ca = folder.appendingPathComponent("reader-ca.pem")
            try Data((try leaf.serializeAsPEM().pemString + "\n" + ca.serializeAsPEM().pemString + "\n").utf8).write(to: chain)
            try Data((leafKey.pemRepresentation + "\n").utf8).write(to: key)
            try Data((try ca.serializeAsPEM().pemString + "\n").utf8).write(to: self.ca)
        }

        var arguments: [String] { ["--reader-cert", "@" + chain.path, "--reader-key", "@" + key.path] }
    }

    @Test func anUntrustedReaderIsAnsweredOnlyWithoutRequireTrustedReader() async throws {
        let tenant = try await Self.tenant()
        defer { tenant.stop() }
        let pki = try ReaderPKI(in: tenant.work)

        // Not required: the reader's certificate does not chain to a trusted CA, and the device answers anyway.
        let (answering, engagement) = try await Self.present(tenant, ["--yes"])
        defer { Self.stop(answering) }
        let answered = try await Self.run(tenant.reader(engagement) + pki.arguments)
        #expect(answered.status == 0 && (try? Self.result(answered.output).status) == .verified, "\(answered.output) \(answered.error)")
        let answeringEnd = try await Self.ended(answering)
        #expect(answeringEnd.status == 0, "\(answeringEnd.lines) \(answeringEnd.error)")
        #expect(answeringEnd.lines.contains { $0.hasPrefix("asked: ") && !$0.contains("verified by certificate") }, "\(answeringEnd.lines)")

        // Required: the device ends the session (status 20) before it shows or sends anything, and fails.
        let (refusing, refusedEngagement) = try await Self.present(tenant, ["--yes", "--require-trusted-reader"])
        defer { Self.stop(refusing) }
        let refused = try await Self.run(tenant.reader(refusedEngagement) + pki.arguments)
        #expect(refused.status != 0, "\(refused.output)")
        let refusal = try Self.result(refused.output)
        #expect(refusal.status == .declined && refusal.claims == nil, "\(refused.output)")
        let refusingEnd = try await Self.ended(refusing)
        #expect(refusingEnd.status == 65, "\(refusingEnd.lines) \(refusingEnd.error)")
        #expect(refusingEnd.error.contains("the reader is not trusted (--require-trusted-reader): nothing was disclosed"), "\(refusingEnd.error)")
        #expect(!refusingEnd.lines.contains { $0.hasPrefix("asked: ") || $0.hasPrefix("sent: ") }, "\(refusingEnd.lines)")

        // The reader CA trusted (`readers add`): required, and the reader is verified by its certificate.
        let added = try await Self.run(tenant.device + ["readers", "add", "@" + pki.ca.path])
        #expect(added.status == 0, "\(added.output) \(added.error)")
        let listed = try await Self.run(tenant.device + ["readers", "list"])
        #expect(listed.status == 0 && listed.output.contains("Example Reader CA"), "\(listed.output) \(listed.error)")
        let (trusting, trustedEngagement) = try await Self.present(tenant, ["--yes", "--require-trusted-reader"])
        defer { Self.stop(trusting) }
        let trusted = try await Self.run(tenant.reader(trustedEngagement) + pki.arguments)
        #expect(trusted.status == 0 && (try? Self.result(trusted.output).status) == .verified, "\(trusted.output) \(trusted.error)")
        let trustingEnd = try await Self.ended(trusting)
        #expect(trustingEnd.status == 0, "\(trustingEnd.lines) \(trustingEnd.error)")
        #expect(trustingEnd.lines.contains { $0.hasPrefix("asked: ") && $0.contains("(verified by certificate)") }, "\(trustingEnd.lines)")

        // `readers remove`: the CA is no longer trusted, and --require-trusted-reader refuses the reader again.
        struct Trusted: Decodable { var id: String }
        let id = try #require(try JSONDecoder().decode([Trusted].self, from: Data(listed.output.utf8)).first?.id)
        let removed = try await Self.run(tenant.device + ["readers", "remove", id])
        #expect(removed.status == 0, "\(removed.output) \(removed.error)")
        #expect(try await Self.run(tenant.device + ["readers", "list"]).output.trimmingCharacters(in: .whitespacesAndNewlines) == "[]")
        let (again, againEngagement) = try await Self.present(tenant, ["--yes", "--require-trusted-reader"])
        defer { Self.stop(again) }
        let refusedAgain = try await Self.run(tenant.reader(againEngagement) + pki.arguments)
        #expect(refusedAgain.status != 0 && (try? Self.result(refusedAgain.output).status) == .declined, "\(refusedAgain.output)")
        #expect(try await Self.ended(again).status == 65)
    }

    @Test func aRevokedCredentialFailsAtTheReaderOnline() async throws {
        let tenant = try await Self.tenant()
        defer { tenant.stop() }
        let issued = try #require(try await Self.json(Page.self, ["admin", "credentials", "list"] + tenant.data).data.first)
        // The phone checks the status now (`credentials get` fetches the list and caches it for its ttl) …
        struct Listed: Decodable { var id: String }
        struct Shown: Decodable { var status: String? }
        let held = try #require(try await Self.json([Listed].self, tenant.device + ["credentials", "list", "--json"]).first)
        #expect(try await Self.json(Shown.self, tenant.device + ["credentials", "get", held.id, "--json"]).status == "valid")
        // … then the tenant revokes the credential: the phone's cached list is still fresh, so it presents, and the reader,
        // online, fetches the tenant's list.
        _ = try await Self.json(Identified.self, ["admin", "credentials", "status", issued.id, "revoked"] + tenant.data)

        let (holder, engagement) = try await Self.present(tenant, ["--yes"])
        defer { Self.stop(holder) }
        let read = try await Self.run(tenant.reader(engagement))
        #expect(read.status != 0, "\(read.output)")
        let result = try Self.result(read.output)
        #expect(result.status == .failed && Self.codes(result) == ["STATUS_REVOKED"], "\(read.output)")
        #expect(read.error.contains("STATUS_REVOKED"), "\(read.error)")
        #expect(result.claims == nil)
        let device = try await Self.ended(holder)
        #expect(device.status == 0, "\(device.lines) \(device.error)")
        #expect(device.lines.contains { $0.hasPrefix("sent: ") && $0.contains("org.iso.18013.5.1/family_name") }, "\(device.lines)")

        // Offline (`--offline`), the reader cannot tell: STATUS_UNKNOWN.
        let (offlineHolder, offlineEngagement) = try await Self.present(tenant, ["--yes"])
        defer { Self.stop(offlineHolder) }
        let offline = try await Self.run(tenant.reader(offlineEngagement) + ["--offline"])
        #expect(offline.status != 0 && (try? Self.codes(Self.result(offline.output))) == ["STATUS_UNKNOWN"], "\(offline.output)")
        #expect(try await Self.ended(offlineHolder).status == 0)
    }

    /// docs/command-line.md "In person": its shell block, taken from the document and run as it is by bash (`-euo
    /// pipefail`, `holdfast` on the PATH) in a folder whose `./phone` holds the tenant's mDL, `HOLDFAST_DATA` naming the
    /// tenant's data folder, so that the document and the commands cannot drift apart.
    @Test func theDocumentedExampleRunsAsWritten() async throws {
        let document = try String(contentsOf: TestEnvironment.repositoryRoot.appendingPathComponent("docs/command-line.md"), encoding: .utf8)
        let section = try #require(document.components(separatedBy: "\n## In person").dropFirst().first?.components(separatedBy: "\n## ").first)
        let block = try #require(section.components(separatedBy: "```sh\n").dropFirst().first?.components(separatedBy: "\n```").first)
        #expect(block.contains("present-proximity") && block.contains("holdfast reader"), "\(block)")

        let tenant = try await Self.tenant()
        defer { tenant.stop() }
        var environment = Self.environment
        environment["HOLDFAST_DATA"] = tenant.server.data.path
        environment["PATH"] = try ServeProcessTests.executable().deletingLastPathComponent().path + ":" + (environment["PATH"] ?? "/usr/bin:/bin")
        // Never leave the phone running: its job is killed when the script ends.
        let prologue = "set -euo pipefail\ncd '\(tenant.work.path)'\ntrap 'kill $(jobs -p) 2>/dev/null || true' EXIT TERM\n"
        let script = try ChildProcess(executable: "/bin/bash", arguments: ["-c", prologue + block], environment: environment)
        defer { Self.stop(script) }
        guard let status = try await script.exit(within: .seconds(120)) else {
            // SIGTERM first: the script's trap then ends the phone it started.
            script.terminate()
            _ = try await script.exit(within: .seconds(10))
            Issue.record("the documented example did not end: \(script.output) \(script.error)")
            return
        }
        #expect(status == 0, "\(script.output) \(script.error)")
        let result = try Self.result(try #require(script.output.split(separator: "\n").first.map(String.init)))
        #expect(result.status == .verified, "\(script.output)")
        #expect(result.claims?[Self.docType]?["org.iso.18013.5.1"]?["family_name"] == .string("Doe"))
        let phone = script.output.split(separator: "\n").dropFirst().map(String.init)
        #expect(phone.first?.hasPrefix("mdoc:") == true && phone.contains { $0.hasPrefix("asked: ") } && phone.contains { $0.hasPrefix("sent: ") }
                && phone.last == "ended: the reader ended the session (status 20)", "\(phone)")
    }

    @Test func theReadersUsageAndDataErrors() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("holdfast-reader-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let pki = try ReaderPKI(in: folder)
        let base = ["reader", "--doctype", Self.docType, "--elements", Self.elements, "--iaca", "@" + pki.ca.path]

        let alone = try await Self.run(base + ["--engagement", "mdoc:owBjMS4w", "--reader-cert", "@" + pki.chain.path])
        #expect(alone.status == 64, "\(alone.error)")
        #expect(alone.error.contains("--reader-cert and --reader-key go together"), "\(alone.error)")
        let keyAlone = try await Self.run(base + ["--engagement", "mdoc:owBjMS4w", "--reader-key", "@" + pki.key.path])
        #expect(keyAlone.status == 64, "\(keyAlone.error)")

        let unqualified = try await Self.run(["reader", "--engagement", "mdoc:owBjMS4w", "--doctype", Self.docType, "--elements", "family_name",
                                              "--iaca", "@" + pki.ca.path])
        #expect(unqualified.status == 64 && unqualified.error.contains("NAMESPACE:ELEMENT"), "\(unqualified.error)")

        // Files the command line names that do not hold what it says: 65, one line, before any connection is tried.
        let missing = folder.appendingPathComponent("missing.pem").path
        for (arguments, says) in [(["--iaca", "@" + missing], "--iaca: cannot read"), (["--iaca", "not PEM"], "--iaca: no certificate in the PEM text"),
                                  (["--iaca", "@" + pki.ca.path, "--reader-cert", "@" + pki.chain.path, "--reader-key", "@" + pki.chain.path],
                                   "the reader's identity (--reader-cert, --reader-key) cannot be read")] {
            let run = try await Self.run(["reader", "--engagement", "mdoc:owBjMS4w", "--doctype", Self.docType, "--elements", Self.elements] + arguments)
            #expect(run.status == 65 && run.error.hasPrefix("error: " + says) && run.error.split(separator: "\n").count == 1, "\(arguments): \(run.error)")
        }

        for malformed in ["mdoc:not-an-engagement", "https://example.com", "mdoc:"] {
            let run = try await Self.run(base + ["--engagement", malformed])
            #expect(run.status == 65, "\(malformed): \(run.error)")
            #expect(run.error.hasPrefix("error: --engagement: ") && run.error.contains("mdoc:") && run.error.split(separator: "\n").count == 1,
                    "\(malformed): \(run.error)")
            #expect(run.output.isEmpty, "\(malformed): \(run.output)")
        }
    }
}
