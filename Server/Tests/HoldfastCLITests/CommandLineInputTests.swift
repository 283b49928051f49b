import Foundation
import Testing
import TestSupport

/// docs/command-line.md "The `holdfast` command" and "Exit codes", through the built executable: JSON input is read one way (every
/// invalid field by its path, once, on one line, 65), a file name without `@` gets a hint, a malformed flag is a usage
/// error (64), and the smaller promises — `--version`, the help of `inspect` and `demo`, the committed samples.
@Suite(.serialized) struct CommandLineInputTests {
    typealias Run = ExitCodeTests.Run

    static func run(_ arguments: [String], environment: [String: String] = [:]) async throws -> Run {
        try await ExitCodeTests.run(arguments, environment: environment)
    }

    /// One failure line, 65, with `code`, and none of what the old readers printed: Swift's DecodingError, the usage,
    /// an empty field path, the same text twice.
    static func expectOneDataErrorLine(_ run: Run, code: String, _ comment: String, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(run.status == 65, "\(comment): \(run.error)", sourceLocation: sourceLocation)
        #expect(run.errorLines.count == 1 && run.error.hasPrefix("error: ") && run.error.hasSuffix("(\(code))\n"),
                "\(comment): \(run.error)", sourceLocation: sourceLocation)
        for leftover in ["DecodingError", "CodingKeys", "Usage", "USAGE", ": :", "error: : ", "; ;"] {
            #expect(!run.error.contains(leftover), "\(comment): \(run.error)", sourceLocation: sourceLocation)
        }
        #expect(run.output.isEmpty, "\(comment): \(run.output)", sourceLocation: sourceLocation)
        let message = run.error.dropFirst("error: ".count).split(separator: "(").first.map(String.init) ?? ""
        let parts = message.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
        #expect(Set(parts).count == parts.count, "\(comment): repeated: \(run.error)", sourceLocation: sourceLocation)
    }

    @Test func aConfigurationWithoutItsDisplayNamesTheFieldByItsPath() async throws {
        let data = try await ExitCodeTests.tenantFolder()
        defer { try? FileManager.default.removeItem(at: data) }
        let run = try await Self.run(["admin", "credentials", "configurations", "create", "--data", data.path,
                                      #"{"id":"mdl","docType":"org.iso.18013.5.1.mDL"}"#])
        Self.expectOneDataErrorLine(run, code: "VALIDATION_FAILED", "configurations create")
        #expect(run.error.contains("display: the field is required"), "\(run.error)")
        let nested = try await Self.run(["admin", "credentials", "configurations", "create", "--data", data.path,
                                         #"{"id":"mdl","docType":"org.iso.18013.5.1.mDL","display":{"name":7}}"#])
        Self.expectOneDataErrorLine(nested, code: "VALIDATION_FAILED", "configurations create, display.name")
        #expect(nested.error.contains("display.name: expected a string"), "\(nested.error)")
    }

    @Test func offerClaimsOfTheWrongShapeNameTheField() async throws {
        let data = try await ExitCodeTests.tenantFolder()
        defer { try? FileManager.default.removeItem(at: data) }
        let run = try await Self.run(["admin", "credentials", "offer", "--data", data.path, "--configuration", "mdl",
                                      "--claims", #"{"org.iso.18013.5.1": 7}"#])
        Self.expectOneDataErrorLine(run, code: "VALIDATION_FAILED", "offer --claims")
        #expect(run.error.contains("org.iso.18013.5.1: expected an object"), "\(run.error)")
        let notJSON = try await Self.run(["admin", "credentials", "offer", "--data", data.path, "--configuration", "mdl", "--claims", "{nope"])
        Self.expectOneDataErrorLine(notJSON, code: "INVALID_JSON", "offer --claims {nope")
    }

    /// A list the SCA back end refuses: each field with its path, no empty path, nothing said twice.
    @Test func scaPoliciesAndEligibilityOfTheWrongShapeNameTheField() async throws {
        let data = try await ExitCodeTests.tenantFolder()
        defer { try? FileManager.default.removeItem(at: data) }
        let object = try await Self.run(["admin", "sca", "policies", "set", "--data", data.path, "{}"])
        Self.expectOneDataErrorLine(object, code: "VALIDATION_FAILED", "policies set {}")
        let field = try await Self.run(["admin", "sca", "policies", "set", "--data", data.path,
                                        #"[{"method":"POST","pathTemplate":"/v1/x","signedFields":"all"}]"#])
        Self.expectOneDataErrorLine(field, code: "VALIDATION_FAILED", "policies set without requiredPatterns")
        #expect(field.error.contains("[0].requiredPatterns: the field is required"), "\(field.error)")
        let rules = try await Self.run(["admin", "sca", "eligibility", "set", "--data", data.path, #"{"blockedDeviceModels": "x"}"#])
        Self.expectOneDataErrorLine(rules, code: "VALIDATION_FAILED", "eligibility set")
        #expect(rules.error.contains("blockedDeviceModels: expected"), "\(rules.error)")
    }

    /// A file given without its `@` is read as JSON text, which it is not; the line says what was probably meant.
    @Test func aFileNameWithoutItsAtGetsTheHint() async throws {
        let data = try await ExitCodeTests.tenantFolder()
        defer { try? FileManager.default.removeItem(at: data) }
        let file = data.appendingPathComponent("app.json")
        try Data(#"{"type":"ios"}"#.utf8).write(to: file)
        let run = try await Self.run(["admin", "applications", "create", "--data", data.path, file.path])
        Self.expectOneDataErrorLine(run, code: "INVALID_JSON", "applications create FILE")
        #expect(run.error.contains("did you mean @\(file.path)?"), "\(run.error)")
        let claims = try await Self.run(["admin", "credentials", "offer", "--data", data.path, "--configuration", "mdl", "--claims", file.path])
        #expect(claims.status == 65 && claims.error.contains("did you mean @\(file.path)?"), "\(claims.error)")
        // Text that names no file gets no hint.
        let plain = try await Self.run(["admin", "applications", "create", "--data", data.path, "app.json-that-is-not-there"])
        #expect(plain.status == 65 && !plain.error.contains("did you mean"), "\(plain.error)")
    }

    /// The credentials and SCA admin commands refused by the services: 65 with the code, as every other admin command.
    @Test func credentialsAndSCARefusalsAreDataErrors() async throws {
        let data = try await ExitCodeTests.tenantFolder()
        defer { try? FileManager.default.removeItem(at: data) }
        let unknown = UUID().uuidString.lowercased()
        // A status word outside revoked|suspended|valid is refused by the parser: usage, 64 (docs/command-line.md "Exit codes").
        let word = try await Self.run(["admin", "credentials", "status", unknown, "forgotten", "--data", data.path])
        #expect(word.status == 64, "\(word.error)")
        for arguments in [["credentials", "status", unknown, "revoked"],
                          ["credentials", "configurations", "get", "nope"], ["credentials", "offer", "--configuration", "nope", "--claims", "{}"],
                          ["sca", "wallets", "create", "--application", unknown, "--user", "u"], ["sca", "wallets", "unlock", unknown],
                          ["sca", "eligibility", "denial", "DEN-unknown"]] {
            let run = try await Self.run(["admin"] + arguments + ["--data", data.path])
            #expect(run.status == 65, "\(arguments): \(run.error)")
            #expect(run.errorLines.count == 1 && run.error.hasPrefix("error: ") && run.error.hasSuffix(")\n"), "\(arguments): \(run.error)")
        }
    }

    /// README "Quick start": an iOS application's teamId is Apple's ten upper-case letters and digits.
    @Test func aShortTeamIdIsRefusedWithItsField() async throws {
        let data = try await ExitCodeTests.tenantFolder()
        defer { try? FileManager.default.removeItem(at: data) }
        for teamId in ["short", "abcde12345", "ABCDE123456"] {
            let run = try await Self.run(["admin", "applications", "create", "--data", data.path,
                                          #"{"type":"ios","name":"Wallet","clientId":"wallet","bundleId":"com.example.wallet","teamId":"\#(teamId)","appAttest":{"required":false,"environment":"production"}}"#])
            Self.expectOneDataErrorLine(run, code: "VALIDATION_FAILED", teamId)
            #expect(run.error.contains("teamId: must be the 10-character Apple team identifier"), "\(run.error)")
        }
    }

    /// A port out of range is a wrong command line: 64 and the usage, before anything starts or is created.
    @Test func servesPortOutOfRangeIsAUsageError() async throws {
        let data = ExitCodeTests.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: data) }
        for arguments in [["--port", "99999"], ["--port", "eighty"], ["--host", "bad host"]] {
            let run = try await Self.run(["serve", "--data", data.path] + arguments)
            #expect(run.status == 64, "\(arguments): \(run.error)")
            #expect(run.error.contains(arguments[0]) && (run.error.contains("Usage") || run.error.contains("USAGE")), "\(arguments): \(run.error)")
            #expect(!FileManager.default.fileExists(atPath: data.path))
        }
    }

    @Test func versionAndTheHelpOfInspectAndDemo() async throws {
        let version = try await Self.run(["--version"])
        #expect(version.status == 0 && version.output == "0.1.0\n", "\(version.output) \(version.error)")
        let inspect = try await Self.run(["inspect", "--help"])
        for promise in ["Status List Token", "mDoc", "App Attest", "COSE_Sign1", "JWS", "samples/"] {
            #expect(inspect.output.contains(promise), "inspect --help lacks \(promise): \(inspect.output)")
        }
        let demo = try await Self.run(["demo", "--help"])
        for promise in ["every capability", "mDoc", "verifier", "revoked", "SCA wallet"] {
            #expect(demo.output.contains(promise), "demo --help lacks \(promise): \(demo.output)")
        }
    }

    /// The samples README points at (`samples/README.md`): `inspect` reads each, and the App Attest one verifies with
    /// the command written there.
    @Test func theCommittedSamplesDoWhatTheirREADMESays() async throws {
        let samples = TestEnvironment.repositoryRoot.appendingPathComponent("samples")
        let expectations = [("status-list-token.cwt.hex", "https://example.com/statuslists/1"),
                            ("status-list-token.jwt", "https://example.com/statuslists/1"),
                            ("eudi-pid-device-response.b64", "eu.europa.ec.eudi.pid.1"),
                            ("appattest-warden-iphone15.attestation.b64", "appattestdevelop")]
        for (file, shown) in expectations {
            let run = try await Self.run(["inspect", "@" + samples.appendingPathComponent(file).path])
            #expect(run.status == 0 && run.output.contains(shown), "\(file): \(run.error) \(run.output.prefix(600))")
        }
        let attest = try await Self.run([
            "attest", "apple", "--attestation", "@" + samples.appendingPathComponent("appattest-warden-iphone15.attestation.b64").path,
            "--key-id", "LSvIC9++WgE27+2zyYe0QoYK/O+gXhQlZk8qxoQe0Ic=",
            "--client-data-hash-base64", "xF2iCYpBtu1TPMxR4qgrbRQaxPRmI38yMWpalQUvB3g=",
            "--app-id", "9CYHJNG644.at.asitplus.attestation.Test", "--environment", "development", "--at", "2024-03-05T07:39:28Z"])
        #expect(attest.status == 0 && attest.output.hasPrefix(#"{"valid":true,"#), "\(attest.output) \(attest.error)")
        let readme = try String(contentsOf: samples.appendingPathComponent("README.md"), encoding: .utf8)
        for (file, _) in expectations { #expect(readme.contains("`\(file)`")) }
        #expect(readme.contains("--key-id LSvIC9++WgE27+2zyYe0QoYK/O+gXhQlZk8qxoQe0Ic="))
    }

    /// `--qr`: the JSON alone on standard output, the QR code on standard error.
    @Test func theQRCodeGoesToStandardError() async throws {
        let data = try await ExitCodeTests.tenantFolder()
        defer { try? FileManager.default.removeItem(at: data) }
        let configuration = try await Self.run(["admin", "credentials", "configurations", "create", "--data", data.path,
                                                #"{"id":"mdl","docType":"org.iso.18013.5.1.mDL","nameSpaces":{"org.iso.18013.5.1":["family_name"]},"display":{"name":"Licence"}}"#])
        #expect(configuration.status == 0, "\(configuration.error)")
        let offer = try await Self.run(["admin", "credentials", "offer", "--data", data.path, "--configuration", "mdl",
                                        "--claims", #"{"org.iso.18013.5.1":{"family_name":"Doe"}}"#, "--qr"])
        #expect(offer.status == 0, "\(offer.error)")
        let object = try JSONSerialization.jsonObject(with: Data(offer.output.utf8)) as? [String: Any]
        #expect((object?["offerUri"] as? String)?.hasPrefix("openid-credential-offer://") == true, "\(offer.output)")
        #expect(offer.error.contains("▀") && !offer.output.contains("▀"))
    }
}
