import Foundation
import ServerTestSupport
import Testing
import TestSupport

/// The admin commands and a simulated device against `holdfast serve`, all as processes, as docs/command-line.md "The `holdfast`
/// command" has a person use them: the admin commands name the public URL the server recorded (nothing exported for
/// them), and the certificates they print as PEM are what `device issuers add` and `device verifiers add` read.
@Suite(.serialized) struct CommandLineTenantTests {
    static let application = #"{"type":"ios","name":"Example Wallet","clientId":"example-wallet","bundleId":"com.example.wallet","teamId":"ABCDE12345","appAttest":{"required":false,"environment":"production"}}"#
    static let configuration = #"{"id":"mdl","docType":"org.iso.18013.5.1.mDL","nameSpaces":{"org.iso.18013.5.1":["family_name","given_name"]},"display":{"name":"Driving licence"}}"#
    static let claims = #"{"org.iso.18013.5.1":{"family_name":"Doe","given_name":"Jane"}}"#

    struct Failure: Error, CustomStringConvertible { let description: String }

    /// Runs `holdfast`, requires exit 0, and decodes its JSON output as `T`.
    static func json<T: Decodable>(_ type: T.Type, _ arguments: [String], environment: [String: String] = [:]) async throws -> T {
        let run = try await ServeProcessTests.run(arguments, environment: environment)
        guard run.status == 0 else { throw Failure(description: "\(arguments.prefix(4)): exit \(run.status): \(run.error)") }
        return try JSONDecoder().decode(T.self, from: Data(run.output.utf8))
    }

    /// README "Walkthrough": its shell blocks, taken from README.md and run as they are by bash (with `-euo pipefail`,
    /// in a temporary folder, `holdfast` on the PATH), only the port changed, so that README and this test cannot
    /// drift apart. The walkthrough starts `holdfast serve` on a fresh data folder and goes to a claimed, presented
    /// and revoked credential and a verified SCA proof.
    @Test func theREADMEWalkthroughRunsAsWritten() async throws {
        let readme = try String(contentsOf: TestEnvironment.repositoryRoot.appendingPathComponent("README.md"), encoding: .utf8)
        let section = try #require(readme.components(separatedBy: "\n### Walkthrough").dropFirst().first?.components(separatedBy: "\n##").first)
        let blocks = section.components(separatedBy: "```sh\n").dropFirst().compactMap { $0.components(separatedBy: "\n```").first }
        try #require(!blocks.isEmpty, "README has no walkthrough block")
        let script = blocks.joined(separator: "\n")
        #expect(script.contains("holdfast serve") && script.contains("8080"))

        let port = try RawConnection.freePort()
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("holdfast-readme-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: work) }
        // The harness around the block: stop at the first failure, and never leave the server running.
        let prologue = "set -euo pipefail\ncd '\(work.path)'\ntrap 'kill $(jobs -p) 2>/dev/null || true' EXIT\n"
        var environment = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("HOLDFAST_") }
        let binaries = try ServeProcessTests.executable().deletingLastPathComponent().path
        environment["PATH"] = binaries + ":" + (environment["PATH"] ?? "/usr/bin:/bin")
        let run = try await ChildProcess.run(executable: "/bin/bash",
                                             arguments: ["-c", prologue + script.replacingOccurrences(of: "8080", with: "\(port)")],
                                             environment: environment)
        let output = String(decoding: run.output, as: UTF8.self)
        let log = (try? String(contentsOf: work.appendingPathComponent("serve.log"), encoding: .utf8)) ?? ""
        #expect(run.status == 0, "\(output)\n\(String(decoding: run.error, as: UTF8.self))\n\(log)")
        let compact = output.filter { !$0.isWhitespace }
        // The claimed mDL, the verifier's verified result, the revocation and the back end's verdict on the proof.
        #expect(compact.contains(#""docType":"org.iso.18013.5.1.mDL""#), "\(output)")
        #expect(compact.contains(#""status":"verified""#), "\(output)")
        #expect(compact.contains(#""status":"revoked""#), "\(output)")
        // The phone saw the revocation at once (`credentials refresh-status`), the tenant's status list index beside it.
        #expect(output.contains("status: revoked  (status list index "), "\(output)")
        #expect(compact.contains(#""valid":true"#) && compact.contains(#""pattern":"pin""#), "\(output)")
        // The server named the public URL of the walkthrough, on the port it was given.
        #expect(log.contains("localhost:\(port)"), "\(log)")
    }

    @Test func adminCommandsNameTheServersPublicURLAndPrintPEMTheDeviceTrusts() async throws {
        let port = try RawConnection.freePort()
        let server = try ServeProcessTests.Server(port: port)
        defer { server.process.terminate() }
        #expect(try await server.waitFor("listening on"))
        let tenant = "http://127.0.0.1:\(port)"
        let data = ["--data", server.data.path]
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("holdfast-walk-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: work) }
        let device = ["device", "--state", work.appendingPathComponent("device").path]

        struct Identified: Decodable { var id: String }
        let application = try await Self.json(Identified.self, ["admin", "applications", "create", Self.application] + data)
        _ = try await Self.json(Identified.self, ["admin", "credentials", "configurations", "create", Self.configuration] + data)

        // The offer names the server's URL — its bound port, not 8080 — with no HOLDFAST_PUBLIC_URL for the command, and
        // the server's still wins over one the command is given.
        struct Offer: Decodable { var offerUri: String }
        let offer = try await Self.json(Offer.self, ["admin", "credentials", "offer", "--configuration", "mdl", "--claims", Self.claims] + data)
        let decoded = try #require(offer.offerUri.removingPercentEncoding)
        #expect(decoded.contains(#""credential_issuer":"\#(tenant)""#), "\(decoded)")
        let elsewhere = try await ServeProcessTests.run(["admin", "credentials", "offer", "--configuration", "mdl", "--claims", Self.claims] + data,
                                                        environment: ["HOLDFAST_PUBLIC_URL": "https://elsewhere.example"])
        #expect(elsewhere.status == 0, "\(elsewhere.error)")
        #expect(elsewhere.output.removingPercentEncoding?.contains(#""credential_issuer":"\#(tenant)""#) == true, "\(elsewhere.output)")
        #expect(elsewhere.error.contains("HOLDFAST_PUBLIC_URL differs"), "\(elsewhere.error)")

        // `iacas` prints PEM (`--json` the API's list), which the device trusts from a file.
        let iacas = try await ServeProcessTests.run(["admin", "credentials", "iacas"] + data)
        #expect(iacas.status == 0 && iacas.output.hasPrefix("-----BEGIN CERTIFICATE-----\n") && iacas.output.hasSuffix("-----END CERTIFICATE-----\n"),
                "\(iacas.output) \(iacas.error)")
        struct CertificateList: Decodable { struct Item: Decodable { var certificatePem: String }; var data: [Item] }
        let iacaList = try await Self.json(CertificateList.self, ["admin", "credentials", "iacas", "--json"] + data)
        #expect(iacaList.data.map { $0.certificatePem.hasSuffix("\n") ? $0.certificatePem : $0.certificatePem + "\n" }.joined() == iacas.output)
        let iacaFile = work.appendingPathComponent("iacas.pem")
        try Data(iacas.output.utf8).write(to: iacaFile)

        _ = try await ServeProcessTests.run(device + ["register", "--tenant", tenant, "--application", application.id])
        let trusted = try await ServeProcessTests.run(device + ["issuers", "add", "@" + iacaFile.path])
        #expect(trusted.status == 0, "\(trusted.output) \(trusted.error)")
        // Declining the offer at its question (here the end of input) is a decision: exit 0, `declined`, and the
        // offer is not redeemed — the claim below, of the same offer, succeeds.
        let declinedClaim = try await ServeProcessTests.run(device + ["claim", offer.offerUri, "--tenant", tenant, "--application", application.id])
        struct Declined: Decodable { var declined: Bool; var offered: [String] }
        let declinedOffer = try? JSONDecoder().decode(Declined.self, from: Data(declinedClaim.output.utf8))
        #expect(declinedClaim.status == 0 && declinedOffer?.declined == true && declinedOffer?.offered == ["org.iso.18013.5.1.mDL"],
                "\(declinedClaim.output) \(declinedClaim.error)")
        let claimed = try await ServeProcessTests.run(device + ["claim", offer.offerUri, "--tenant", tenant, "--application", application.id, "--yes"])
        #expect(claimed.status == 0, "\(claimed.output) \(claimed.error)")

        // The status list URI the admin commands show is the server's too.
        struct Issued: Decodable {
            struct StatusList: Decodable { var uri: String }
            var id: String
            var status: String
            var statusList: StatusList?
        }
        struct Page: Decodable { var data: [Issued] }
        let issued = try #require(try await Self.json(Page.self, ["admin", "credentials", "list"] + data).data.first)
        #expect(issued.statusList?.uri.hasPrefix(tenant + "/") == true, "\(String(describing: issued.statusList))")

        // `presentations verifier-cas` prints PEM the device trusts: the request is then verified by certificate.
        let cas = try await ServeProcessTests.run(["admin", "presentations", "verifier-cas"] + data)
        #expect(cas.status == 0 && cas.output.hasPrefix("-----BEGIN CERTIFICATE-----\n"), "\(cas.output) \(cas.error)")
        let caList = try await Self.json(CertificateList.self, ["admin", "presentations", "verifier-cas", "--json"] + data)
        #expect(caList.data.map { $0.certificatePem.hasSuffix("\n") ? $0.certificatePem : $0.certificatePem + "\n" }.joined() == cas.output)
        let caFile = work.appendingPathComponent("verifier-ca.pem")
        try Data(cas.output.utf8).write(to: caFile)
        let verifiers = try await ServeProcessTests.run(device + ["verifiers", "add", "@" + caFile.path])
        #expect(verifiers.status == 0, "\(verifiers.output) \(verifiers.error)")
        struct Session: Decodable { var sessionId: String; var authorizationRequestUri: String; var requestUri: String }
        let session = try await Self.json(Session.self, ["admin", "presentations", "create", "--doc-type", "org.iso.18013.5.1.mDL",
                                                         "--element", "org.iso.18013.5.1:family_name"] + data)
        #expect(session.requestUri.hasPrefix(tenant + "/"), "\(session.requestUri)")
        struct Presented: Decodable {
            struct Verifier: Decodable { var verifiedBy: String }
            var verifier: Verifier
            var sent: [String]
            var declined: Bool
        }
        struct Result: Decodable { var status: String }

        // Declining at the question (the end of input) is a decision: the verifier is told, exit 0, `declined`.
        let declinedSession = try await Self.json(Session.self, ["admin", "presentations", "create", "--doc-type", "org.iso.18013.5.1.mDL",
                                                                 "--element", "org.iso.18013.5.1:family_name"] + data)
        let declined = try await Self.json(Presented.self, device + ["present", declinedSession.authorizationRequestUri])
        #expect(declined.declined && declined.sent.isEmpty)
        #expect(try await Self.json(Result.self, ["admin", "presentations", "result", declinedSession.sessionId] + data).status == "declined")

        let presented = try await Self.json(Presented.self, device + ["present", session.authorizationRequestUri, "--require-trusted-verifier", "--yes"])
        #expect(presented.verifier.verifiedBy == "certificate" && presented.sent.count == 1 && !presented.declined)
        #expect(try await Self.json(Result.self, ["admin", "presentations", "result", session.sessionId] + data).status == "verified")

        // A session answered already (sent or declined) says so, with its own code, not only the verifier's 404.
        for answered in [session.authorizationRequestUri, declinedSession.authorizationRequestUri] {
            let again = try await ServeProcessTests.run(device + ["present", answered, "--yes"])
            #expect(again.status == 65 && again.error.contains("answered already or has expired") && again.error.contains("(VERIFIER_SESSION_CLOSED)"),
                    "\(again.output) \(again.error)")
        }

        let revoked = try await Self.json(Issued.self, ["admin", "credentials", "status", issued.id, "revoked"] + data)
        #expect(revoked.status == "revoked" && revoked.statusList?.uri == issued.statusList?.uri)
    }
}
