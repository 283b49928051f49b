import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import HoldfastProtocol
import ServerTestSupport
import Testing
import TestSupport

/// Examples/WalletApp — an app made of the SDK guide's code (docs/sdk.md), on the repository root by path with only
/// `import HoldfastSDK` — run against `holdfast serve`: the tenant's admin and a bank's back end prepare what only they
/// can (an application, an offer, a verifier session, an activation code), the app goes through the guide's flow, and
/// the tenant's verifier and back end confirm what it did.
@Suite(.serialized) struct WalletAppTests {
    static let example = TestEnvironment.repositoryRoot.appendingPathComponent("Examples/WalletApp")

    /// Builds the example as its own package (a no-op when `.ci/run` built it already) and returns its binary.
    static func walletApp() async throws -> URL {
        let build = try await ChildProcess.run(executable: "/usr/bin/env",
                                               arguments: ["swift", "build", "--package-path", example.path],
                                               environment: ProcessInfo.processInfo.environment)
        try #require(build.status == 0, "swift build of Examples/WalletApp: \(String(decoding: build.output + build.error, as: UTF8.self))")
        return example.appendingPathComponent(".build/debug/WalletApp")
    }

    @Test func theGuidesFlowRunsAgainstATenant() async throws {
        let binary = try await Self.walletApp()
        let port = try RawConnection.freePort()
        let server = try ServeProcessTests.Server(port: port)
        defer { server.process.terminate() }
        #expect(try await server.waitFor("listening on"))
        let tenant = "http://127.0.0.1:\(port)"
        let data = ["--data", server.data.path]
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("holdfast-walletapp-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: work) }

        struct Identified: Decodable { var id: String }
        struct Offer: Decodable { var offerUri: String }
        struct Session: Decodable { var sessionId: String; var authorizationRequestUri: String }
        struct Wallet: Decodable { var activationCode: String }
        struct Key: Decodable { var key: String }
        let application = try await CommandLineTenantTests.json(Identified.self, ["admin", "applications", "create",
                                                                                  CommandLineTenantTests.application] + data)
        _ = try await CommandLineTenantTests.json(Identified.self, ["admin", "credentials", "configurations", "create",
                                                                    CommandLineTenantTests.configuration] + data)
        let offer = try await CommandLineTenantTests.json(Offer.self, ["admin", "credentials", "offer", "--configuration", "mdl",
                                                                       "--claims", CommandLineTenantTests.claims] + data)
        let iacas = try await ServeProcessTests.run(["admin", "credentials", "iacas"] + data)
        let verifierCAs = try await ServeProcessTests.run(["admin", "presentations", "verifier-cas"] + data)
        try #require(iacas.status == 0 && verifierCAs.status == 0, "\(iacas.error) \(verifierCAs.error)")
        try Data(iacas.output.utf8).write(to: work.appendingPathComponent("iacas.pem"))
        try Data(verifierCAs.output.utf8).write(to: work.appendingPathComponent("verifier-ca.pem"))
        let session = try await CommandLineTenantTests.json(Session.self, ["admin", "presentations", "create", "--doc-type",
                                                                           "org.iso.18013.5.1.mDL", "--element",
                                                                           "org.iso.18013.5.1:family_name"] + data)
        let unanswerable = try await CommandLineTenantTests.json(Session.self, ["admin", "presentations", "create", "--doc-type",
                                                                                "org.iso.18013.5.1.mDL", "--element",
                                                                                "org.iso.18013.5.1:age_over_21"] + data)
        let policies = try await ServeProcessTests.run(["admin", "sca", "policies", "set", #"[{"method": "POST", "pathTemplate": "/v1/beneficiaries", "signedFields": "all", "requiredPatterns": ["pin"]}]"#] + data)
        try #require(policies.status == 0, "\(policies.error)")
        let wallet = try await CommandLineTenantTests.json(Wallet.self, ["admin", "sca", "wallets", "create", "--application",
                                                                         application.id, "--user", "customer-42"] + data)
        let body = #"{"name": "Alex Martin", "iban": "FR7630001007941234567890185"}"#

        let run = try await ChildProcess.run(executable: binary.path, arguments: [
            "--tenant", tenant, "--application", application.id, "--state", work.appendingPathComponent("state").path,
            "--iaca", work.appendingPathComponent("iacas.pem").path, "--offer", offer.offerUri,
            "--verifier-ca", work.appendingPathComponent("verifier-ca.pem").path,
            "--presentation", session.authorizationRequestUri, "--unanswerable", unanswerable.authorizationRequestUri,
            "--activation-code", wallet.activationCode,
            "--pin", "246810", "--body", body,
        ])
        let output = String(decoding: run.output, as: UTF8.self), errors = String(decoding: run.error, as: UTF8.self)
        try #require(run.status == 0, "\(output)\n\(errors)")
        var steps: [String: [String: Any]] = [:]
        for line in output.split(separator: "\n") {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "\(line)")
            steps[try #require(object["step"] as? String)] = object
        }
        #expect(Array(steps.keys).sorted() == ["attestation-only", "claiming", "declined", "offline-limit", "presentation", "proximity",
                                              "sca", "status", "tethering"], "\(output)")
        // A Linux device cannot attest: the attestation-only app does not register it.
        #expect(steps["attestation-only"]?["registered"] as? Bool == false, "\(output)")
        #expect((steps["tethering"]?["registration"] as? String)?.hasPrefix("registered(instanceId: ") == true, "\(output)")
        #expect(steps["claiming"]?["docType"] as? String == "org.iso.18013.5.1.mDL", "\(output)")
        #expect(steps["claiming"]?["elements"] as? [String] == ["family_name", "given_name"], "\(output)")
        #expect(steps["offline-limit"]?["opened"] as? Bool == true, "\(output)")
        #expect(steps["status"]?["status"] as? String == "valid" && steps["status"]?["failed"] as? Int == 0, "\(output)")
        // In person: the app's reader verified what the holder showed over loopback, status list read online.
        #expect(steps["proximity"]?["status"] as? String == "verified", "\(output)\n\(errors)")
        #expect(steps["proximity"]?["elements"] as? [String] == ["family_name", "given_name"], "\(output)")

        // The tenant's verifier has the answer the app sent.
        struct Result: Decodable { var status: String }
        #expect(try await CommandLineTenantTests.json(Result.self, ["admin", "presentations", "result", session.sessionId] + data)
            .status == "verified")
        // The request for an element the credential lacks was declined: the verifier knows at once.
        #expect(try await CommandLineTenantTests.json(Result.self, ["admin", "presentations", "result", unanswerable.sessionId] + data)
            .status == "declined", "\(errors)")
        #expect(errors.contains("no stored credential holds [\"org.iso.18013.5.1/age_over_21\"]"), "\(errors)")

        // The bank's back end verifies the proof the app signed, for the operation it was shown.
        let proof = try #require(steps["sca"]?["proof"] as? String, "\(output)")
        let bank = try await CommandLineTenantTests.json(Key.self, ["admin", "keys", "create", "--name", "bank", "--scope", "sca"] + data)
        var request = URLRequest(url: try #require(URL(string: tenant + SCARoutes.Template.verifyProof.template)))
        request.httpMethod = "POST"
        request.setValue("Bearer \(bank.key)", forHTTPHeaderField: "Authorization")
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.httpBody = try JSONSerialization.data(withJSONObject: [
            "proof": proof, "method": "POST", "url": "https://api.bank.example/v1/beneficiaries",
            "body": try JSONSerialization.jsonObject(with: Data(body.utf8)),
        ])
        let (answer, response) = try await URLSession.shared.data(for: request)
        let verdict = try #require(try JSONSerialization.jsonObject(with: answer) as? [String: Any])
        #expect((response as? HTTPURLResponse)?.statusCode == 200 && verdict["valid"] as? Bool == true
                && verdict["pattern"] as? String == "pin", "\(String(decoding: answer, as: UTF8.self))")
    }
}
