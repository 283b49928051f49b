import Foundation
import TestSupport
import Testing
@testable import holdfast

/// `holdfast attest apple` and `holdfast attest apple-assertion`, run in-process through ArgumentParser.
@Suite struct AttestAppleCLITests {
    func attest(_ arguments: [String]) async throws -> AttestOutcome {
        try await AppleAttestCommand.parse(arguments).outcome(run: .system())
    }

    func assert(_ arguments: [String]) async throws -> AttestOutcome {
        try await AppleAssertionCommand.parse(arguments).outcome()
    }

    // MARK: attestation

    @Test func attestationVectorVerifiesWithItsFacts() async throws {
        let vector = try AttestCLIFixtures.appleAttestation()
        let outcome = try await attest(vector.arguments())
        expectValid(outcome)
        #expect(outcome.facts["publicKey"] as? String == hexString(try #require(Data(base64Encoded: vector.publicKeyBase64))))
        #expect(outcome.facts["keyId"] as? String == vector.keyIdBase64)
        #expect(outcome.facts["environment"] as? String == "production")
        #expect(outcome.facts["appId"] as? String == vector.appId)
        #expect(outcome.facts["counter"] as? Int == 0)
        #expect((outcome.facts["receiptLength"] as? Int ?? 0) > 0)
        #expect((outcome.facts["warnings"] as? [String])?.isEmpty == true)
    }

    @Test func clientDataHashMayBeGivenInHex() async throws {
        let vector = try AttestCLIFixtures.appleAttestation()
        let outcome = try await attest(vector.arguments(["--client-data-hash-base64": nil, "--client-data-hash": vector.clientDataHashHex]))
        expectValid(outcome)
    }

    @Test func attestationMayBeABinaryOrBase64File() async throws {
        let vector = try AttestCLIFixtures.appleAttestation()
        let binary = try AttestCLIFixtures.file(try #require(Data(base64Encoded: vector.attestationBase64)), suffix: ".cbor")
        defer { AttestCLIFixtures.removeFile(binary) }
        expectValid(try await attest(vector.arguments(["--attestation": binary])))
        let text = try AttestCLIFixtures.file(Data((vector.attestationBase64 + "\n").utf8), suffix: ".b64")
        defer { AttestCLIFixtures.removeFile(text) }
        expectValid(try await attest(vector.arguments(["--attestation": text])))
    }

    @Test func flippedAuthDataByteIsANonceMismatch() async throws {
        let vector = try AttestCLIFixtures.appleAttestation()
        let object = try #require(Data(base64Encoded: vector.attestationBase64))
        // The text key "authData" is followed by the byte string's 2-byte header (0x58 0xA4); 10 bytes on is rpIdHash.
        let key = try #require(object.range(of: Data("authData".utf8)))
        let mutated = AttestCLIFixtures.flipped(object, at: key.upperBound - object.startIndex + 10)
        expectFailure(try await attest(vector.arguments(["--attestation": mutated.base64EncodedString()])), "NONCE_MISMATCH")
    }

    @Test func wrongAppIdIsAnAppIdMismatch() async throws {
        let vector = try AttestCLIFixtures.appleAttestation()
        expectFailure(try await attest(vector.arguments(["--app-id": "9CYHJNG644.at.asitplus.other"])), "APP_ID_MISMATCH")
    }

    @Test func wrongEnvironmentIsAnEnvironmentMismatch() async throws {
        let vector = try AttestCLIFixtures.appleAttestation()
        expectFailure(try await attest(vector.arguments(["--environment": "development"])), "ENVIRONMENT_MISMATCH")
    }

    @Test func wrongKeyIdIsAKeyIdMismatch() async throws {
        let vector = try AttestCLIFixtures.appleAttestation()
        let keyId = AttestCLIFixtures.flipped(try #require(Data(base64Encoded: vector.keyIdBase64)), at: 0)
        expectFailure(try await attest(vector.arguments(["--key-id": keyId.base64EncodedString()])), "KEY_ID_MISMATCH")
    }

    @Test func certificatesAreCheckedAtTheGivenInstant() async throws {
        let vector = try AttestCLIFixtures.appleAttestation()
        expectFailure(try await attest(vector.arguments(["--at": "2030-01-01T00:00:00Z"])), "CERTIFICATE_EXPIRED")
    }

    @Test func anotherRootReplacesApplesRoot() async throws {
        let vector = try AttestCLIFixtures.appleAttestation()
        let googleRoot = "@" + TestEnvironment.vectorURL(
            "android-key-attestation/android-keyattestation/roots/google_key_attestation_ca1_ecp384_2025-2035.pem").path
        expectFailure(try await attest(vector.arguments(["--root": googleRoot])), "UNTRUSTED_CHAIN")
        let appleRoot = "@" + TestEnvironment.vectorURL("appattest/apple_app_attestation_root_ca.pem").path
        expectValid(try await attest(vector.arguments(["--root": appleRoot])))
    }

    @Test func attestationThatIsNotCBORIsInvalidFormat() async throws {
        let vector = try AttestCLIFixtures.appleAttestation()
        expectFailure(try await attest(vector.arguments(["--attestation": Data("not an attestation".utf8).base64EncodedString()])), "INVALID_FORMAT")
    }

    // MARK: the hex-only / base64-only rule

    @Test func hexClientDataHashGivenAsBase64IsReadAsBase64() async throws {
        // The hex text is valid base64 too; read as base64 it is 48 other bytes, so the nonce does not match.
        let vector = try AttestCLIFixtures.appleAttestation()
        expectFailure(try await attest(vector.arguments(["--client-data-hash-base64": vector.clientDataHashHex])), "NONCE_MISMATCH")
    }

    @Test func base64ClientDataHashGivenAsHexIsRejected() async throws {
        let vector = try AttestCLIFixtures.appleAttestation()
        let outcome = try await attest(vector.arguments(["--client-data-hash-base64": nil, "--client-data-hash": vector.clientDataHashBase64]))
        expectFailure(outcome, "INVALID_ARGUMENT")
    }

    @Test func clientDataHashNeedsExactlyOneSpelling() async throws {
        let vector = try AttestCLIFixtures.appleAttestation()
        expectFailure(try await attest(vector.arguments(["--client-data-hash": vector.clientDataHashHex])), "INVALID_ARGUMENT")
        expectFailure(try await attest(vector.arguments(["--client-data-hash-base64": nil])), "INVALID_ARGUMENT")
    }

    @Test func keyIdIsBase64OnlyAndThirtyTwoBytes() async throws {
        // A hex key id decodes as base64 to 48 bytes: refused rather than silently compared.
        let vector = try AttestCLIFixtures.appleAttestation()
        let hex = hexString(try #require(Data(base64Encoded: vector.keyIdBase64)))
        expectFailure(try await attest(vector.arguments(["--key-id": hex])), "INVALID_ARGUMENT")
        expectFailure(try await attest(vector.arguments(["--key-id": "%%%"])), "INVALID_ARGUMENT")
    }

    @Test func unreadableValuesAreInvalidArguments() async throws {
        let vector = try AttestCLIFixtures.appleAttestation()
        expectFailure(try await attest(vector.arguments(["--environment": "staging"])), "INVALID_ARGUMENT")
        expectFailure(try await attest(vector.arguments(["--app-id": "nodot"])), "INVALID_ARGUMENT")
        expectFailure(try await attest(vector.arguments(["--at": "yesterday"])), "INVALID_ARGUMENT")
        expectFailure(try await attest(vector.arguments(["--attestation": "@/nonexistent/attestation.cbor"])), "INVALID_ARGUMENT")
        expectFailure(try await attest(vector.arguments(["--root": "/no/at/sign.pem"])), "INVALID_ARGUMENT")
    }

    // MARK: assertion

    @Test func assertionVectorVerifiesWithTheNewCounter() async throws {
        let vector = try AttestCLIFixtures.appleAssertion()
        let outcome = try await assert(vector.arguments())
        expectValid(outcome)
        #expect(outcome.facts["counter"] as? Int == 1)
        #expect(outcome.facts["previousCounter"] as? Int == 0)
        #expect(outcome.facts["appId"] as? String == vector.appId)
    }

    @Test func assertionPublicKeyMayBeBase64SPKIOrPEMFile() async throws {
        let vector = try AttestCLIFixtures.appleAssertion()
        let spki = vector.publicKeyPEM.components(separatedBy: "-----").filter { !$0.isEmpty }[1].filter { !$0.isWhitespace }
        expectValid(try await assert(vector.arguments(publicKey: spki)))
        let pem = try AttestCLIFixtures.file(Data(vector.publicKeyPEM.utf8), suffix: ".pem")
        defer { AttestCLIFixtures.removeFile(pem) }
        expectValid(try await assert(vector.arguments(publicKey: pem)))
    }

    @Test func replayedAssertionCounterIsNotIncreasing() async throws {
        let vector = try AttestCLIFixtures.appleAssertion()
        expectFailure(try await assert(vector.arguments(counter: "1")), "COUNTER_NOT_INCREASING")
    }

    @Test func flippedAssertionByteIsAnInvalidSignature() async throws {
        // The last byte is the low byte of authenticatorData's counter, which the signature covers.
        let vector = try AttestCLIFixtures.appleAssertion()
        let assertion = try #require(Data(base64Encoded: vector.assertionBase64))
        let mutated = AttestCLIFixtures.flipped(assertion, at: assertion.count - 1)
        expectFailure(try await assert(vector.arguments(assertion: mutated.base64EncodedString())), "SIGNATURE_INVALID")
        expectFailure(try await assert(vector.arguments(clientDataHashHex: String(repeating: "00", count: 32))), "SIGNATURE_INVALID")
    }

    @Test func assertionArgumentsMustBeReadable() async throws {
        let vector = try AttestCLIFixtures.appleAssertion()
        expectFailure(try await assert(vector.arguments(publicKey: "04abcd")), "INVALID_ARGUMENT")
        expectFailure(try await assert(vector.arguments(counter: "one")), "INVALID_ARGUMENT")
        expectFailure(try await assert(vector.arguments(counter: "4294967296")), "INVALID_ARGUMENT")
        expectFailure(try await assert(vector.arguments(clientDataHashHex: vector.clientDataHashBase64)), "INVALID_ARGUMENT")
    }
}
