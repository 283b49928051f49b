import Attestation
import Crypto
import Foundation
import TestSupport
import Testing

/// Apple App Attest rules ("Validating apps that connect to your server"), against shared/vectors/appattest.
@Suite struct AppAttestTests {
    let verifier = AppAttestVerifier()

    func verify(_ vector: AppAttestCase, attestation: [UInt8]? = nil, keyId: [UInt8]? = nil, clientDataHash: [UInt8]? = nil,
                appId: String? = nil, environment: AppAttestEnvironment? = nil, at time: Date? = nil,
                using verifier: AppAttestVerifier? = nil) async throws -> AppAttestAttestationResult {
        try await (verifier ?? self.verifier).verifyAttestation(
            attestation ?? vector.attestation, keyId: keyId ?? vector.keyId, clientDataHash: clientDataHash ?? vector.clientDataHash,
            appId: appId ?? vector.appId, environment: environment ?? vector.environment, at: time ?? vector.verifyAt)
    }

    func sample() throws -> AppAttestCase {
        try #require(AppAttestVectors.load().attestations.first { $0.name.hasPrefix("warden-iphone11") })
    }

    @Test func embeddedAppleRootParses() {
        #expect(AppleAppAttestationRoot.all.count == 1)
    }

    @Test func everyAttestationVectorVerifies() async throws {
        let cases = try AppAttestVectors.load().attestations
        #expect(cases.count == 15)
        for vector in cases {
            do {
                let result = try await verify(vector)
                #expect(result.keyId == vector.keyId, "\(vector.name)")
                #expect(result.publicKey.count == 65)
                #expect(!result.receipt.isEmpty)
            } catch {
                Issue.record("\(vector.name): \(error)")
            }
        }
    }

    @Test func everyAssertionVectorVerifies() async throws {
        let (attestations, assertions) = try AppAttestVectors.load()
        #expect(assertions.count >= 11)
        for assertion in assertions {
            let file = assertion.name.split(separator: ".").prefix(2).joined(separator: ".")
            guard let attestation = attestations.first(where: { $0.name.hasPrefix(file) && (assertion.keyId == nil || $0.keyId == assertion.keyId) }) else {
                Issue.record("no attestation for \(assertion.name)")
                continue
            }
            do {
                let key = try await verify(attestation).publicKey
                let result = try verifier.verifyAssertion(assertion.assertion, publicKey: key, clientDataHash: assertion.clientDataHash,
                                                          appId: assertion.appId, previousCounter: 0)
                #expect(result.counter == assertion.expectedCounter, "\(assertion.name)")
                // Step 5: a replay with the counter already stored fails.
                #expect(throws: AttestationError.counterNotIncreasing(stored: result.counter, received: result.counter)) {
                    try verifier.verifyAssertion(assertion.assertion, publicKey: key, clientDataHash: assertion.clientDataHash,
                                                 appId: assertion.appId, previousCounter: result.counter)
                }
                #expect(throws: AttestationError.self) {
                    try verifier.verifyAssertion(assertion.assertion, publicKey: key, clientDataHash: Array(repeating: 0, count: 32),
                                                 appId: assertion.appId, previousCounter: 0)
                }
                await expectCode("APP_ID_MISMATCH") {
                    _ = try verifier.verifyAssertion(assertion.assertion, publicKey: key, clientDataHash: assertion.clientDataHash,
                                                     appId: "AAAAAAAAAA.example.other", previousCounter: 0)
                }
            } catch {
                Issue.record("\(assertion.name): \(error)")
            }
        }
    }

    @Test func assertionSignatureMustVerify() async throws {
        let (attestations, assertions) = try AppAttestVectors.load()
        let assertion = try #require(assertions.first { $0.name.hasPrefix("warden-iphone11") })
        let key = try await verify(#require(attestations.first { $0.name.hasPrefix("warden-iphone11") })).publicKey
        await expectCode("SIGNATURE_INVALID") {
            _ = try verifier.verifyAssertion(assertion.assertion, publicKey: key, clientDataHash: assertion.clientDataHash.reversed(),
                                             appId: assertion.appId, previousCounter: 0)
        }
        let otherKey = P256.Signing.PrivateKey().publicKey.x963Representation
        await expectCode("SIGNATURE_INVALID") {
            _ = try verifier.verifyAssertion(assertion.assertion, publicKey: Array(otherKey), clientDataHash: assertion.clientDataHash,
                                             appId: assertion.appId, previousCounter: 0)
        }
        await expectCode("INVALID_FORMAT") {
            _ = try verifier.verifyAssertion([0xA0], publicKey: key, clientDataHash: assertion.clientDataHash, appId: assertion.appId, previousCounter: 0)
        }
    }

    @Test func productionVectorFailsInDevelopmentAndBack() async throws {
        for vector in try AppAttestVectors.load().attestations.prefix(8) {
            let other: AppAttestEnvironment = vector.environment == .production ? .development : .production
            await expectCode("ENVIRONMENT_MISMATCH") { _ = try await verify(vector, environment: other) }
        }
    }

    @Test func wrongAppIdIsRejected() async throws {
        await expectCode("APP_ID_MISMATCH") { _ = try await verify(try sample(), appId: "9CYHJNG644.at.asitplus.other") }
    }

    @Test func wrongKeyIdIsRejected() async throws {
        var keyId = try sample().keyId
        keyId[0] ^= 1
        await expectCode("KEY_ID_MISMATCH") { _ = try await verify(try sample(), keyId: keyId) }
    }

    @Test func wrongClientDataHashIsANonceMismatch() async throws {
        await expectCode("NONCE_MISMATCH") { _ = try await verify(try sample(), clientDataHash: Array(SHA256.hash(data: [1, 2, 3]))) }
    }

    @Test func certificatesAreCheckedAtTheVerificationTime() async throws {
        let vector = try sample()
        await expectCode("CERTIFICATE_EXPIRED") { _ = try await verify(vector, at: parseInstant("2030-01-01T00:00:00Z")) }
        await expectCode("CERTIFICATE_NOT_YET_VALID") { _ = try await verify(vector, at: parseInstant("2020-01-01T00:00:00Z")) }
    }

    @Test func anotherRootIsNotTrusted() async throws {
        let googleRooted = AppAttestVerifier(trustedRoots: GoogleAttestationRoots.all)
        await expectCode("UNTRUSTED_CHAIN") { _ = try await verify(try sample(), using: googleRooted) }
    }

    /// Locates `needle` inside the attestation object (the authData, a certificate …).
    func offset(of needle: [UInt8], in haystack: [UInt8]) -> Int? {
        guard needle.count <= haystack.count else { return nil }
        return (0...(haystack.count - needle.count)).first { haystack[$0..<($0 + needle.count)].elementsEqual(needle) }
    }

    @Test func flippedByteInAuthenticatorDataIsANonceMismatch() async throws {
        let vector = try sample()
        // authData starts with SHA256(appId); flip a byte of it, so the nonce no longer matches the certificate.
        let rpIdHash = Array(SHA256.hash(data: Array(vector.appId.utf8)))
        let start = try #require(offset(of: rpIdHash, in: vector.attestation))
        var mutated = vector.attestation
        mutated[start + 40] ^= 0x01
        await expectCode("NONCE_MISMATCH") { _ = try await verify(vector, attestation: mutated) }
    }

    @Test func flippedByteInTheNonceExtensionIsANonceMismatch() async throws {
        let vector = try sample()
        let nonceMarker: [UInt8] = [0x30, 0x24, 0xA1, 0x22, 0x04, 0x20]
        let start = try #require(offset(of: nonceMarker, in: vector.attestation))
        var mutated = vector.attestation
        mutated[start + 10] ^= 0x01
        // The certificate's own signature breaks first: a changed nonce extension is an untrusted certificate.
        await expectCode("UNTRUSTED_CHAIN") { _ = try await verify(vector, attestation: mutated) }
    }

    @Test func flippedByteInACertificateSignatureIsUntrusted() async throws {
        let vector = try sample()
        let certificate = try #require(AppAttestVectors.firstCertificate(of: vector.attestation))
        let start = try #require(offset(of: certificate, in: vector.attestation))
        var mutated = vector.attestation
        mutated[start + certificate.count - 5] ^= 0x01
        await expectCode("UNTRUSTED_CHAIN") { _ = try await verify(vector, attestation: mutated) }
    }

    @Test func hostileAttestationInputNeverCrashes() async throws {
        let vector = try sample()
        var generator = SystemRandomNumberGenerator()
        for round in 0..<300 {
            var bytes = vector.attestation
            for _ in 0..<(1 + round % 6) {
                bytes[Int.random(in: 0..<bytes.count, using: &generator)] = UInt8.random(in: 0...255, using: &generator)
            }
            if round % 7 == 0 { bytes = Array(bytes.prefix(Int.random(in: 0..<bytes.count, using: &generator))) }
            _ = try? await verify(vector, attestation: bytes)
            _ = try? verifier.verifyAssertion(bytes, publicKey: bytes, clientDataHash: [], appId: "", previousCounter: 0)
        }
        for garbage in [[], [0xA0], [0xBF], [0x9F, 0x9F, 0x9F], [UInt8](repeating: 0x81, count: 200)] as [[UInt8]] {
            await expectCode("INVALID_FORMAT") { _ = try await verify(vector, attestation: garbage) }
        }
    }
}

extension AppAttestVectors {
    /// The credential certificate's DER inside an attestation object (x5c[0]); found by its SEQUENCE header.
    static func firstCertificate(of attestation: [UInt8]) -> [UInt8]? {
        guard let start = (0..<(attestation.count - 4)).first(where: { attestation[$0] == 0x30 && attestation[$0 + 1] == 0x82 }) else { return nil }
        let length = Int(attestation[start + 2]) << 8 | Int(attestation[start + 3])
        return Array(attestation[start..<(start + 4 + length)])
    }
}
