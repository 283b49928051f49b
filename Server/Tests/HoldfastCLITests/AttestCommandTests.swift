import ArgumentParser
import Foundation
import Testing
@testable import holdfast

/// The contract all `holdfast attest` subcommands share: routing, one JSON object per run, exit statuses.
@Suite struct AttestCommandTests {
    @Test func subcommandsAreRoutedByName() throws {
        #expect(try AttestCommand.parseAsRoot(["apple", "--attestation", "AA==", "--key-id", "AA==", "--client-data-hash", "00",
                                               "--app-id", "T.b", "--environment", "production"]) is AppleAttestCommand)
        #expect(try AttestCommand.parseAsRoot(["apple-assertion", "--assertion", "AA==", "--public-key", "AA==",
                                               "--client-data-hash", "00", "--app-id", "T.b", "--counter", "0"]) is AppleAssertionCommand)
        #expect(try AttestCommand.parseAsRoot(["android", "--chain", "AA==", "--challenge", "00"]) is AndroidAttestCommand)
    }

    @Test func outputIsOneJSONObjectWithValidFirst() throws {
        let failure = AttestOutcome.failure(code: "NONCE_MISMATCH", reason: "nonce mismatch: \"quoted\"")
        #expect(failure.json.hasPrefix(#"{"valid":false,"code":"NONCE_MISMATCH","reason":"#))
        #expect(!failure.json.contains("\n"))
        let parsed = try #require(JSONSerialization.jsonObject(with: Data(failure.json.utf8)) as? [String: Any])
        #expect(Set(parsed.keys) == ["valid", "code", "reason"])
        #expect(parsed["valid"] as? Bool == false)
        #expect(parsed["reason"] as? String == "nonce mismatch: \"quoted\"")

        let success = AttestOutcome.verified(["counter": 2, "warnings": [String]()])
        #expect(success.json == #"{"valid":true,"counter":2,"warnings":[]}"#)
        #expect(AttestOutcome.verified([:]).json == #"{"valid":true}"#)
    }

    @Test func invalidOutcomeExitsWithStatusOne() throws {
        do {
            try AttestCommand.emit(.failure(code: "REVOKED", reason: "revoked"))
            Issue.record("emit of a failure must throw")
        } catch let exit as ExitCode {
            #expect(exit.rawValue == 1)
        }
        try AttestCommand.emit(.verified(["counter": 1]))
    }

    @Test func missingRequiredOptionIsAUsageError() {
        do {
            _ = try AppleAttestCommand.parse(["--key-id", "AA=="])
            Issue.record("parsing without --attestation must fail")
        } catch {
            #expect(AttestCommand.exitCode(for: error) == .validationFailure)
        }
    }
}
