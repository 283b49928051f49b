import Foundation
import TestSupport
import Testing
@testable import holdfast

/// `holdfast attest android`, run in-process through ArgumentParser, on Google's own test chains.
@Suite struct AttestAndroidCLITests {
    func attest(_ arguments: [String]) async throws -> AttestOutcome {
        try await AndroidAttestCommand.parse(arguments).outcome(run: .system())
    }

    @Test func chainVectorVerifiesWithItsFacts() async throws {
        let vector = try AttestCLIFixtures.androidChain(AttestCLIFixtures.caiman)
        let outcome = try await attest(vector.arguments())
        expectValid(outcome)
        #expect(outcome.facts["securityLevel"] as? String == "TrustedEnvironment")
        #expect(outcome.facts["keyMintSecurityLevel"] as? String == "TrustedEnvironment")
        #expect(outcome.facts["attestationVersion"] as? Int == 400)
        #expect(outcome.facts["packageNames"] as? [String] == [vector.package])
        #expect(outcome.facts["signingCertificateDigests"] as? [String] == [vector.digest])
        let rootOfTrust = try #require(outcome.facts["rootOfTrust"] as? [String: Any])
        #expect(rootOfTrust["verifiedBootState"] as? String == "Verified")
        #expect(rootOfTrust["deviceLocked"] as? Bool == true)
        #expect(outcome.facts["remotelyProvisioned"] as? Bool == true)
        #expect(outcome.facts["chainLength"] as? Int == 5)
        #expect(outcome.facts["trustAnchor"] as? String == "Google hardware attestation root (RSA-4096)")
        #expect((outcome.facts["warnings"] as? [String])?.isEmpty == true)
        // The leaf's SubjectPublicKeyInfo, base64.
        let leafKey = try #require(Data(base64Encoded: outcome.facts["publicKey"] as? String ?? ""))
        #expect(vector.derCertificates[0].range(of: leafKey) != nil)
    }

    @Test func challengeMayBeGivenInBase64() async throws {
        let vector = try AttestCLIFixtures.androidChain(AttestCLIFixtures.caiman)
        var arguments = vector.arguments()
        let index = try #require(arguments.firstIndex(of: "--challenge"))
        arguments[index...index + 1] = ["--challenge-base64", vector.challengeBase64]
        expectValid(try await attest(arguments))
    }

    @Test func chainMayBeAJSONListACommaListOrBinaryDER() async throws {
        let vector = try AttestCLIFixtures.androidChain(AttestCLIFixtures.caiman)
        let base64 = vector.derCertificates.map { $0.base64EncodedString() }
        let json = String(decoding: try JSONSerialization.data(withJSONObject: base64), as: UTF8.self)
        expectValid(try await attest(vector.arguments(chain: json)))
        expectValid(try await attest(vector.arguments(chain: base64.joined(separator: ","))))
        let der = try AttestCLIFixtures.file(vector.derCertificates.reduce(Data(), +), suffix: ".der")
        defer { AttestCLIFixtures.removeFile(der) }
        expectValid(try await attest(vector.arguments(chain: der)))
    }

    @Test func skippedAppChecksAreReportedAsWarnings() async throws {
        let vector = try AttestCLIFixtures.androidChain(AttestCLIFixtures.caiman)
        let outcome = try await attest(["--chain", "@" + vector.path, "--challenge", vector.challengeHex, "--at", vector.verifyAt])
        expectValid(outcome)
        #expect(outcome.facts["warnings"] as? [String] == ["packageNameNotChecked", "signingCertificateDigestNotChecked"])
    }

    @Test func wrongChallengeIsANonceMismatch() async throws {
        let vector = try AttestCLIFixtures.androidChain(AttestCLIFixtures.caiman)
        expectFailure(try await attest(vector.arguments(challengeHex: "00" + vector.challengeHex)), "NONCE_MISMATCH")
    }

    @Test func hexChallengeGivenAsBase64IsReadAsBase64() async throws {
        // The hex text is valid base64 too; read as base64 it is other bytes, so the challenge does not match.
        let vector = try AttestCLIFixtures.androidChain(AttestCLIFixtures.caiman)
        var arguments = vector.arguments()
        let index = try #require(arguments.firstIndex(of: "--challenge"))
        arguments[index...index + 1] = ["--challenge-base64", vector.challengeHex]
        expectFailure(try await attest(arguments), "NONCE_MISMATCH")
    }

    @Test func base64ChallengeGivenAsHexIsRejected() async throws {
        let vector = try AttestCLIFixtures.androidChain(AttestCLIFixtures.caiman)
        expectFailure(try await attest(vector.arguments(challengeHex: vector.challengeBase64)), "INVALID_ARGUMENT")
    }

    @Test func wrongPackageOrDigestIsAnAppIdMismatch() async throws {
        let vector = try AttestCLIFixtures.androidChain(AttestCLIFixtures.caiman)
        var arguments = vector.arguments()
        arguments[try #require(arguments.firstIndex(of: "--package")) + 1] = "com.example.other"
        expectFailure(try await attest(arguments), "APP_ID_MISMATCH")
        arguments = vector.arguments()
        arguments[try #require(arguments.firstIndex(of: "--digest")) + 1] = String(repeating: "ab", count: 32)
        expectFailure(try await attest(arguments), "APP_ID_MISMATCH")
    }

    @Test func digestMayBeUppercaseWithColonsAndRepeated() async throws {
        let vector = try AttestCLIFixtures.androidChain(AttestCLIFixtures.caiman)
        var pairs: [String] = []
        var rest = Substring(vector.digest.uppercased())
        while !rest.isEmpty { pairs.append(String(rest.prefix(2))); rest = rest.dropFirst(2) }
        var arguments = vector.arguments()
        arguments[try #require(arguments.firstIndex(of: "--digest")) + 1] = String(repeating: "cd", count: 32)
        arguments += ["--digest", pairs.joined(separator: ":")]
        expectValid(try await attest(arguments))
        arguments += ["--digest", "abcd"]
        expectFailure(try await attest(arguments), "INVALID_ARGUMENT")
    }

    @Test func chainWithACertificateRemovedIsUntrusted() async throws {
        let vector = try AttestCLIFixtures.androidChain(AttestCLIFixtures.caiman)
        var certificates = vector.derCertificates
        certificates.remove(at: 2)
        let list = certificates.map { $0.base64EncodedString() }.joined(separator: ",")
        expectFailure(try await attest(vector.arguments(chain: list)), "UNTRUSTED_CHAIN")
    }

    @Test func flippedLeafSignatureByteIsUntrusted() async throws {
        let vector = try AttestCLIFixtures.androidChain(AttestCLIFixtures.caiman)
        var certificates = vector.derCertificates
        // The leaf's last bytes are its ECDSA signature's s value.
        certificates[0] = AttestCLIFixtures.flipped(certificates[0], at: certificates[0].count - 2)
        let list = certificates.map { $0.base64EncodedString() }.joined(separator: ",")
        expectFailure(try await attest(vector.arguments(chain: list)), "UNTRUSTED_CHAIN")
    }

    @Test func expiredChainIsAcceptedWithAWarningByDefault() async throws {
        // At 2030 the chain's RKP intermediates (valid until 2025-10/12) have expired.
        let vector = try AttestCLIFixtures.androidChain(AttestCLIFixtures.caiman)
        var arguments = vector.arguments()
        arguments[try #require(arguments.firstIndex(of: "--at")) + 1] = "2030-01-01T00:00:00Z"
        let outcome = try await attest(arguments)
        expectValid(outcome)
        #expect(outcome.facts["warnings"] as? [String] == ["certificateExpiredIgnored"])
        expectFailure(try await attest(arguments + ["--expiry", "google"]), "CERTIFICATE_EXPIRED")
        expectFailure(try await attest(arguments + ["--expiry", "enforce"]), "CERTIFICATE_EXPIRED")
        expectFailure(try await attest(arguments + ["--expiry", "never"]), "INVALID_ARGUMENT")
    }

    @Test func strongBoxFlagRejectsTEE() async throws {
        let vector = try AttestCLIFixtures.androidChain(AttestCLIFixtures.caiman)
        expectFailure(try await attest(vector.arguments(["--strongbox"])), "INSUFFICIENT_SECURITY_LEVEL")
    }

    @Test func unverifiedBootNeedsTheFlag() async throws {
        let vector = try AttestCLIFixtures.androidChain(AttestCLIFixtures.akita)
        expectFailure(try await attest(vector.arguments()), "BOOT_STATE_REJECTED")
        let outcome = try await attest(vector.arguments(["--allow-unverified-boot"]))
        expectValid(outcome)
        #expect((outcome.facts["rootOfTrust"] as? [String: Any])?["deviceLocked"] as? Bool == false)
    }

    @Test func revocationListFileRejectsListedSerials() async throws {
        // f165849ef08b4658dd0a8ab95be53006 is the serial of the chain's second certificate (the device's RKP key).
        let vector = try AttestCLIFixtures.androidChain(AttestCLIFixtures.caiman)
        let list = #"{"entries": {"f165849ef08b4658dd0a8ab95be53006": {"status": "REVOKED", "reason": "KEY_COMPROMISE"}}}"#
        let file = try AttestCLIFixtures.file(Data(list.utf8), suffix: ".json")
        defer { AttestCLIFixtures.removeFile(file) }
        expectFailure(try await attest(vector.arguments(["--revocations", file])), "REVOKED")
        let notJSON = try AttestCLIFixtures.file(Data("revoked: all".utf8))
        defer { AttestCLIFixtures.removeFile(notJSON) }
        expectFailure(try await attest(vector.arguments(["--revocations", notJSON])), "INVALID_ARGUMENT")
    }

    @Test func rootOptionReplacesGooglesRoots() async throws {
        let vector = try AttestCLIFixtures.androidChain(AttestCLIFixtures.caiman)
        let appleRoot = "@" + TestEnvironment.vectorURL("appattest/apple_app_attestation_root_ca.pem").path
        expectFailure(try await attest(vector.arguments(["--root", appleRoot])), "UNTRUSTED_CHAIN")
        let googleRoot = "@" + TestEnvironment.vectorURL(
            "android-key-attestation/android-keyattestation/roots/google_hardware_attestation_root_rsa4096_2022-2042.pem").path
        let outcome = try await attest(vector.arguments(["--root", appleRoot, "--root", googleRoot]))
        expectValid(outcome)
        #expect(outcome.facts["trustAnchor"] as? String == "--root certificate 2")
    }

    @Test func malformedChainsFailWithTheirCode() async throws {
        let vector = try AttestCLIFixtures.androidChain(AttestCLIFixtures.caiman)
        expectFailure(try await attest(vector.arguments(chain: "not base64!")), "INVALID_ARGUMENT")
        expectFailure(try await attest(vector.arguments(chain: "[1, 2]")), "INVALID_ARGUMENT")
        expectFailure(try await attest(vector.arguments(chain: "@/nonexistent/chain.pem")), "INVALID_ARGUMENT")
        expectFailure(try await attest(vector.arguments(chain: Data([0x30, 0x03, 0x02, 0x01, 0x01]).base64EncodedString())), "INVALID_FORMAT")
        let eleven = Array(repeating: vector.derCertificates[1].base64EncodedString(), count: 11).joined(separator: ",")
        expectFailure(try await attest(vector.arguments(chain: eleven)), "CHAIN_TOO_LONG")
    }
}
