import Foundation
import TestSupport
import Testing
@testable import holdfast

/// Inputs for the `holdfast attest` tests, read from shared/vectors with the parameters their README gives, as the
/// strings a person would type.
enum AttestCLIFixtures {
    /// appattest/warden-iphone11-ios16-2023.json: a production App Attest attestation (a-sit-plus/warden).
    struct AppleAttestation {
        let attestationBase64: String
        let keyIdBase64: String
        let clientDataHashBase64: String
        let appId: String
        let verifyAt: String
        let publicKeyBase64: String

        var clientDataHashHex: String { hexString(Data(base64Encoded: clientDataHashBase64) ?? Data()) }

        /// The command line that verifies it, with `overrides` replacing or adding options (nil value: removed).
        func arguments(_ overrides: [String: String?] = [:]) -> [String] {
            var options: [(String, String?)] = [
                ("--attestation", attestationBase64), ("--key-id", keyIdBase64), ("--client-data-hash-base64", clientDataHashBase64),
                ("--app-id", appId), ("--environment", "production"), ("--at", verifyAt),
            ]
            for (name, value) in overrides.sorted(by: { $0.key < $1.key }) {
                if let index = options.firstIndex(where: { $0.0 == name }) { options[index].1 = value } else { options.append((name, value)) }
            }
            return options.flatMap { name, value in value.map { [name, $0] } ?? [] }
        }
    }

    static func appleAttestation() throws -> AppleAttestation {
        let json = try TestEnvironment.jsonVector("appattest/warden-iphone11-ios16-2023.json")
        let expected = json["expected"] as? [String: Any]
        return AppleAttestation(
            attestationBase64: try string(json, "attestationObjectBase64"), keyIdBase64: try string(json, "keyIdBase64_derived"),
            clientDataHashBase64: try string(json, "clientDataHashBase64"), appId: try string(json, "appId"),
            verifyAt: try string(json, "verifyAt"), publicKeyBase64: try string(expected ?? [:], "credentialPublicKeyX962Base64"))
    }

    /// appattest/veehaitch-ios-14.4.json samples[1]: a development assertion, counter 1 after 0 (veehaitch/devicecheck-appattest).
    struct AppleAssertion {
        let assertionBase64: String
        let publicKeyPEM: String
        let publicKeyPointBase64: String
        let clientDataHashBase64: String
        let appId: String

        var publicKeyPointHex: String { hexString(Data(base64Encoded: publicKeyPointBase64) ?? Data()) }
        var clientDataHashHex: String { hexString(Data(base64Encoded: clientDataHashBase64) ?? Data()) }

        func arguments(publicKey: String? = nil, counter: String = "0", clientDataHashHex hash: String? = nil, assertion: String? = nil) -> [String] {
            ["--assertion", assertion ?? assertionBase64, "--public-key", publicKey ?? publicKeyPointHex,
             "--client-data-hash", hash ?? clientDataHashHex, "--app-id", appId, "--counter", counter]
        }
    }

    static func appleAssertion() throws -> AppleAssertion {
        let json = try TestEnvironment.jsonVector("appattest/veehaitch-ios-14.4.json")
        let samples = try #require(json["samples"] as? [[String: Any]])
        let attestation = samples[0], assertion = samples[1]
        let expected = try #require(attestation["_expected"] as? [String: Any])
        return AppleAssertion(
            assertionBase64: try string(assertion, "assertionBase64"), publicKeyPEM: try string(assertion, "publicKey"),
            publicKeyPointBase64: try string(expected, "credentialPublicKeyX962Base64"),
            clientDataHashBase64: try string(assertion, "clientDataHashSha256Base64"),
            appId: try string(assertion, "teamIdentifier") + "." + string(assertion, "bundleIdentifier"))
    }

    /// A chain of android-key-attestation/index.json with the challenge, package, digest and verifyAt listed there.
    struct AndroidChain {
        let path: String
        let pem: String
        let challengeHex: String
        let challengeBase64: String
        let package: String
        let digest: String
        let verifyAt: String

        func arguments(_ extra: [String] = [], chain: String? = nil, challengeHex: String? = nil) -> [String] {
            ["--chain", chain ?? "@" + path, "--challenge", challengeHex ?? self.challengeHex, "--package", package,
             "--digest", digest, "--at", verifyAt] + extra
        }

        /// The DER certificates of the PEM file, leaf first.
        var derCertificates: [Data] {
            pem.components(separatedBy: "-----BEGIN CERTIFICATE-----").dropFirst().compactMap { block in
                block.components(separatedBy: "-----END CERTIFICATE-----").first
                    .flatMap { Data(base64Encoded: $0.filter { !$0.isWhitespace }) }
            }
        }
    }

    /// caiman/sdk36/TEE_EC_RKP: a remotely provisioned Pixel chain, verified boot, locked (android/keyattestation).
    static let caiman = "android-keyattestation/testdata/caiman/sdk36/TEE_EC_RKP.pem"
    /// akita/sdk34/TEE_EC_NONE: a Pixel with an unlocked bootloader and unverified boot (android/keyattestation).
    static let akita = "android-keyattestation/testdata/akita/sdk34/TEE_EC_NONE.pem"

    static func androidChain(_ file: String) throws -> AndroidChain {
        let index = try TestEnvironment.jsonVector("android-key-attestation/index.json")
        let entry = try #require((index["chains"] as? [[String: Any]])?.first { $0["file"] as? String == file })
        let description = try #require(entry["parsedKeyDescription"] as? [String: Any])
        let application = try #require(entry["attestationApplicationId"] as? [String: Any])
        let package = try #require((application["package_infos"] as? [[String: Any]])?.first?["package_name"] as? String)
        let url = TestEnvironment.vectorURL("android-key-attestation/" + file)
        return AndroidChain(
            path: url.path, pem: try String(contentsOf: url, encoding: .utf8),
            challengeHex: try string(description, "attestationChallenge_hex"), challengeBase64: try string(entry, "attestationChallengeBase64"),
            package: package, digest: try #require((application["signature_digests_sha256"] as? [String])?.first),
            verifyAt: try string(entry, "verifyAt"))
    }

    static func string(_ object: [String: Any], _ key: String) throws -> String {
        guard let value = object[key] as? String else { throw TestSupportError("vector has no string \(key)") }
        return value
    }

    /// Writes `data` to a fresh temporary file and returns `@path`.
    static func file(_ data: Data, suffix: String = "") throws -> String {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("holdfast-attest-\(UUID().uuidString)\(suffix)")
        try data.write(to: url)
        return "@" + url.path
    }

    static func removeFile(_ argument: String) {
        try? FileManager.default.removeItem(atPath: String(argument.dropFirst()))
    }

    /// `bytes` with one bit of the byte at `index` flipped.
    static func flipped(_ bytes: Data, at index: Int) -> Data {
        var copy = bytes
        copy[copy.startIndex + index] ^= 0x01
        return copy
    }
}

/// Expects a failure outcome with `code`.
func expectFailure(_ outcome: AttestOutcome, _ code: String, sourceLocation: SourceLocation = #_sourceLocation) {
    #expect(!outcome.valid, "expected \(code), got \(outcome.json)", sourceLocation: sourceLocation)
    #expect(outcome.code == code, "\(outcome.json)", sourceLocation: sourceLocation)
    #expect(outcome.facts["reason"] is String, sourceLocation: sourceLocation)
}

/// Expects a valid outcome.
func expectValid(_ outcome: AttestOutcome, sourceLocation: SourceLocation = #_sourceLocation) {
    #expect(outcome.valid, "\(outcome.json)", sourceLocation: sourceLocation)
}
