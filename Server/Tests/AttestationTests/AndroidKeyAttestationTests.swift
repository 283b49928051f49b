@testable import Attestation
import Foundation
import Plumbing
import TestSupport
import Testing

/// Android Key Attestation rules, against the real chains of shared/vectors/android-key-attestation.
@Suite struct AndroidKeyAttestationTests {
    let permissive = AndroidKeyAttestationVerifier(policy: .allowUnverifiedBoot)

    func verify(_ vector: AndroidVector, verifier: AndroidKeyAttestationVerifier? = nil, challenge: [UInt8]? = nil,
                package: String?? = nil, digests: [String]? = nil, at time: Date? = nil) async throws -> AndroidKeyAttestationResult {
        try await (verifier ?? permissive).verify(
            chainData: vector.chainBytes(), challenge: challenge ?? vector.challenge,
            packageName: package ?? vector.packageName, signingCertificateDigests: digests ?? vector.signingDigests,
            at: time ?? vector.verifyAt)
    }

    @Test func embeddedGoogleRootsParse() {
        #expect(GoogleAttestationRoots.all.count == 2)
    }

    @Test func everyVectorMarkedValidVerifies() async throws {
        let valid = try AndroidVector.all().filter { $0.expectedResult.hasPrefix("valid") && !$0.expectedResult.hasPrefix("valid path")
            && !$0.expectedResult.hasPrefix("valid chain; KeyDescription") && !$0.file.contains("StrongBox/cert0") }
        #expect(valid.count >= 25)
        for vector in valid {
            do {
                let result = try await verify(vector)
                #expect(result.keyDescription.attestationChallenge == vector.challenge, "\(vector.file)")
            } catch {
                if vector.file.contains("sony") {
                    await expectCode("ISSUER_NOT_CA") { _ = try await verify(vector) } // see nonCAAttestationKeyCertificateNeedsExplicitPolicy
                } else {
                    Issue.record("\(vector.file): \(error)")
                }
            }
        }
    }

    @Test func chainsEndingInANonGoogleRootAreUntrusted() async throws {
        for vector in try AndroidVector.all() where vector.expectedResult.contains("non-Google root") {
            await expectCode("UNTRUSTED_CHAIN") { _ = try await verify(vector) }
        }
    }

    @Test func softwareAttestationRootIsNotTrusted() async throws {
        let vector = try AndroidVector.named("android-keyattestation/testdata/marlin/sdk29/TEE_EC_NONE.pem")
        await expectCode("UNTRUSTED_CHAIN") { _ = try await verify(vector) }
    }

    @Test func softwareSecurityLevelIsInsufficient() async throws {
        // Even when a verifier is configured to trust the AOSP software root, the Software level is below TEE.
        let vector = try AndroidVector.named("android-keyattestation/testdata/marlin/sdk29/TEE_EC_NONE.pem")
        let softwareRoot = try CertificateChainDecoder.decode([UInt8](TestEnvironment.vector(
            "android-key-attestation/android-keyattestation/roots/aosp_software_attestation_root_ec.pem")))
        let verifier = AndroidKeyAttestationVerifier(trustedRoots: softwareRoot, policy: .allowUnverifiedBoot)
        await expectCode("INSUFFICIENT_SECURITY_LEVEL") { _ = try await verify(vector, verifier: verifier) }
    }

    @Test func strongBoxPolicyRejectsTEE() async throws {
        // procivis requires StrongBox and rejects this TEE chain (README, procivis-one-core).
        let vector = try AndroidVector.named("procivis-one-core/eugenius-tee-android10-2025.pem")
        var policy = AndroidKeyAttestationPolicy.production
        policy.minimumSecurityLevel = .strongBox
        await expectCode("INSUFFICIENT_SECURITY_LEVEL") {
            _ = try await verify(vector, verifier: AndroidKeyAttestationVerifier(policy: policy))
        }
        let strongBox = try AndroidVector.named("procivis-one-core/galaxy-s25-strongbox-2025.pem")
        let result = try await verify(strongBox, verifier: AndroidKeyAttestationVerifier(policy: policy))
        #expect(result.securityLevel == .strongBox)
    }

    @Test func productionPolicyRejectsUnlockedUnverifiedDevices() async throws {
        let vector = try AndroidVector.named("android-keyattestation/testdata/akita/sdk34/TEE_EC_NONE.pem")
        await expectCode("BOOT_STATE_REJECTED") { _ = try await verify(vector, verifier: AndroidKeyAttestationVerifier()) }
        let locked = try AndroidVector.named("android-keyattestation/testdata/caiman/sdk36/TEE_EC_RKP.pem")
        let result = try await verify(locked, verifier: AndroidKeyAttestationVerifier())
        #expect(result.rootOfTrust?.verifiedBootState == .verified)
        #expect(result.rootOfTrust?.deviceLocked == true)
    }

    @Test func editedLeafFailsItsSignature() async throws {
        let vector = try AndroidVector.named("android-keyattestation/testdata/invalid/tags_not_in_ascending_order.pem")
        await expectCode("UNTRUSTED_CHAIN") {
            _ = try await verify(vector, at: parseInstant("2024-10-20T00:00:00Z"))
        }
    }

    @Test func looselyEncodedDeviceLockedParsesAsTrue() async throws {
        let vector = try AndroidVector.named("android-keyattestation/testdata/invalid/malformed_rot_device_locked.pem")
        let result = try await verify(vector, at: parseInstant("2024-10-20T00:00:00Z"))
        #expect(result.rootOfTrust?.deviceLocked == true)
    }

    @Test func keyDescriptionWithUnknownTagsParses() throws {
        let leaf = try AndroidVector.named("android-keyattestation/testdata/allow_while_on_body.pem").chain()[0]
        let value = try #require(leaf.extension(KeyDescription.extensionOID)?.value)
        let description = try KeyDescription(extensionValue: value)
        #expect(description.attestationSecurityLevel == .trustedEnvironment)
        #expect(description.attestationApplicationId?.packageInfos.map(\.name).contains("com.google.android.gms") == true)
    }

    @Test func keyDescriptionFieldsMatchGooglesDecoding() throws {
        let vector = try AndroidVector.named("android-keyattestation/testdata/caiman/sdk36/TEE_EC_RKP.pem")
        let leaf = try vector.chain()[0]
        let description = try KeyDescription(extensionValue: #require(leaf.extension(KeyDescription.extensionOID)?.value))
        // Values from the sibling TEE_EC_RKP.json (Google's own decoding).
        #expect(description.attestationVersion == 400)
        #expect(description.keyMintVersion == 400)
        #expect(description.hardwareEnforced.purposes == [2, 3])
        #expect(description.hardwareEnforced.algorithm == 3)
        #expect(description.hardwareEnforced.keySize == 256)
        #expect(description.hardwareEnforced.ecCurve == 1)
        #expect(description.hardwareEnforced.origin == 0)
        #expect(description.hardwareEnforced.osVersion == 160000)
        #expect(description.hardwareEnforced.osPatchLevel == 202511)
        #expect(description.hardwareEnforced.noAuthRequired)
        #expect(description.softwareEnforced.creationDateTime == 1_758_900_680_964)
        #expect(description.uniqueId.isEmpty)
        #expect(description.rootOfTrust?.verifiedBootHash.map { Data($0).base64EncodedString() } == "BqI5JbZUfsEkCGyl7d01w19Yzm62ihOv39QZXEHGHtQ=")
    }

    @Test func chainWithoutItsRootIsAccepted() async throws {
        let vector = try AndroidVector.named("android-keyattestation/testdata/tegu/sdk36/TEE_EC_2026_ROOT.pem")
        let chain = try vector.chain()
        let result = try await permissive.verify(chain: Array(chain.dropLast()), challenge: vector.challenge,
                                                 packageName: vector.packageName, at: vector.verifyAt)
        #expect(result.isRemotelyProvisioned)
        #expect(result.trustAnchorSubject == GoogleAttestationRoots.all[1].subject)
    }

    @Test func chainWithAnIntermediateRemovedIsUntrusted() async throws {
        let vector = try AndroidVector.named("android-keyattestation/testdata/akita/sdk34/TEE_EC_NONE.pem")
        var chain = try vector.chain()
        chain.remove(at: 2)
        await expectCode("UNTRUSTED_CHAIN") {
            _ = try await permissive.verify(chain: chain, challenge: vector.challenge, at: vector.verifyAt)
        }
    }

    @Test func rootSwappedForASelfSignedCertificateIsUntrusted() async throws {
        let vector = try AndroidVector.named("android-keyattestation/testdata/akita/sdk34/TEE_EC_NONE.pem")
        var chain = try vector.chain()
        let impostor = try TestCertificateFactory.make(subject: "Impostor Root", issuer: nil, isCA: true)
        chain[chain.count - 1] = try AttestationCertificate(derEncoded: impostor.der)
        await expectCode("UNTRUSTED_CHAIN") {
            _ = try await permissive.verify(chain: chain, challenge: vector.challenge, at: vector.verifyAt)
        }
    }

    @Test func issuerThatIsALeafIsRejected() async throws {
        // Two real leaves: the second "issues" the first. Its basicConstraints say it is not a CA.
        let first = try AndroidVector.named("android-keyattestation/testdata/akita/sdk34/TEE_EC_NONE.pem").chain()
        let second = try AndroidVector.named("android-keyattestation/testdata/caiman/sdk36/TEE_EC_RKP.pem").chain()
        await expectCode("ISSUER_NOT_CA") {
            _ = try await permissive.verify(chain: [first[0]] + second, challenge: [], at: Date())
        }
    }

    @Test func attestationExtensionAboveTheLeafIsRejected() async throws {
        // A trusted CA that carries a KeyDescription: the chain-extension attack Google's verifier refuses.
        let description = try AndroidVector.named("android-keyattestation/testdata/akita/sdk34/TEE_EC_NONE.pem").chain()[0]
            .extension(KeyDescription.extensionOID)!.value
        let root = try TestCertificateFactory.make(subject: "Test Root", issuer: nil, isCA: true)
        let middle = try TestCertificateFactory.make(subject: "Attested CA", issuer: ("Test Root", root.key), isCA: true,
                                                     extraExtensions: [TestCertificateFactory.keyAttestationExtension(description)])
        let leaf = try TestCertificateFactory.make(subject: "Leaf", issuer: ("Attested CA", middle.key), isCA: false,
                                                   extraExtensions: [TestCertificateFactory.keyAttestationExtension(description)])
        let verifier = AndroidKeyAttestationVerifier(trustedRoots: [try AttestationCertificate(derEncoded: root.der)],
                                                     policy: .allowUnverifiedBoot)
        await expectCode("EXTENSION_OUTSIDE_LEAF") {
            _ = try await verifier.verify(chainData: leaf.der + middle.der, challenge: Array("challenge".utf8), at: Date())
        }
    }

    @Test func injectedRootAnchorsASyntheticChain() async throws {
        // p256_sha384_intermediate.pem: Test Root as the anchor; P-256 intermediate signed with ECDSA-SHA384.
        // Its leaf has no attestation extension, so verification gets past the chain and stops at the extension.
        let chain = try CertificateChainDecoder.decode([UInt8](TestEnvironment.vector(
            "android-key-attestation/android-keyattestation/testdata/p256_sha384_intermediate.pem")))
        let verifier = AndroidKeyAttestationVerifier(trustedRoots: [chain[2]], policy: .allowUnverifiedBoot)
        await expectCode("INVALID_FORMAT") {
            _ = try await verifier.verify(chain: chain, challenge: [], at: parseInstant("2024-10-20T00:00:00Z")!)
        }
        await expectCode("UNTRUSTED_CHAIN") {
            _ = try await permissive.verify(chain: chain, challenge: [], at: parseInstant("2024-10-20T00:00:00Z")!)
        }
    }

    /// Sony Xperia 10 III: its factory attestation-key certificate says cA=FALSE (accepted by Google's verifier).
    static let sonyPolicy = AndroidKeyAttestationPolicy(acceptedBootStates: [], requireDeviceLocked: false,
                                                        allowNonCAAttestationKeyCertificate: true)

    @Test func nonCAAttestationKeyCertificateNeedsExplicitPolicy() async throws {
        let sony = try AndroidVector.named("android-keyattestation/testdata/sony-xperia10-iii/sdk33/TEE_EC.pem")
        await expectCode("ISSUER_NOT_CA") { _ = try await verify(sony) }
        _ = try await verify(sony, verifier: AndroidKeyAttestationVerifier(policy: Self.sonyPolicy))
    }

    @Test func expiredCertificatesAreAcceptedWithAWarning() async throws {
        // Sony Xperia 10 III: factory intermediates and the 2016 root certificate are expired at verifyAt.
        let sony = try AndroidVector.named("android-keyattestation/testdata/sony-xperia10-iii/sdk33/TEE_EC.pem")
        let result = try await verify(sony, verifier: AndroidKeyAttestationVerifier(policy: Self.sonyPolicy))
        #expect(result.warnings == [.certificateExpiredIgnored])
        #expect(!result.isRemotelyProvisioned)
        let fresh = try await verify(AndroidVector.named("android-keyattestation/testdata/caiman/sdk36/TEE_EC_RKP.pem"))
        #expect(fresh.warnings.isEmpty)
    }

    @Test func expiryOfRemotelyProvisionedChainsIsEnforcedOnlyWhenConfigured() async throws {
        // Google enforces expiry on RKP chains: caiman TEE must fail at 2030-01-01 (README policy facts).
        let caiman = try AndroidVector.named("android-keyattestation/testdata/caiman/sdk36/TEE_EC_RKP.pem")
        let at2030 = parseInstant("2030-01-01T00:00:00Z")!
        let lenient = try await verify(caiman, at: at2030)
        #expect(lenient.warnings == [.certificateExpiredIgnored])
        var policy = Self.sonyPolicy
        policy.expiry = .enforceForRemotelyProvisioned
        let google = AndroidKeyAttestationVerifier(policy: policy)
        await expectCode("CERTIFICATE_EXPIRED") { _ = try await verify(caiman, verifier: google, at: at2030) }
        // … while a factory-provisioned chain with expired intermediates still passes under that policy.
        let sony = try AndroidVector.named("android-keyattestation/testdata/sony-xperia10-iii/sdk33/TEE_EC.pem")
        _ = try await verify(sony, verifier: google)
        policy.expiry = .enforce
        await expectCode("CERTIFICATE_EXPIRED") { _ = try await verify(sony, verifier: AndroidKeyAttestationVerifier(policy: policy)) }
    }

    @Test func notYetValidIntermediateIsRejected() async throws {
        let caiman = try AndroidVector.named("android-keyattestation/testdata/caiman/sdk36/TEE_EC_RKP.pem")
        await expectCode("CERTIFICATE_NOT_YET_VALID") { _ = try await verify(caiman, at: parseInstant("2020-01-01T00:00:00Z")) }
    }

    @Test func wrongChallengeIsRejected() async throws {
        let vector = try AndroidVector.named("warden/cryptotest-tee-2024.pem")
        await expectCode("NONCE_MISMATCH") { _ = try await verify(vector, challenge: vector.challenge.reversed()) }
        await expectCode("NONCE_MISMATCH") { _ = try await verify(vector, challenge: []) }
    }

    @Test func wrongPackageIsRejected() async throws {
        let vector = try AndroidVector.named("procivis-one-core/galaxy-s25-strongbox-2025.pem")
        await expectCode("APP_ID_MISMATCH") { _ = try await verify(vector, package: "com.example.other") }
    }

    @Test func signingDigestIsMatchedCaseInsensitively() async throws {
        let vector = try AndroidVector.named("procivis-one-core/galaxy-s25-strongbox-2025.pem")
        // The digest as procivis configures it: upper case.
        _ = try await verify(vector, digests: ["FAC61745DC0903786FB9EDE62A962B399F7348F0BB6F899B8332667591033B9C"])
        await expectCode("APP_ID_MISMATCH") { _ = try await verify(vector, digests: [String(repeating: "ab", count: 32)]) }
    }

    /// The serial as Google's status list spells it (lowercase hex, no leading zeros), for every certificate of
    /// every vector, against a plain reference spelling of the serial's big-endian bytes.
    @Test func serialNumbersAreSpeltAsTheStatusListSpellsThem() throws {
        var checked = 0
        for vector in try AndroidVector.all() {
            for certificate in (try? vector.chain()) ?? [] {
                let reference = certificate.serialNumber.map { String(format: "%02x", $0) }.joined()
                let trimmed = reference.drop { $0 == "0" }
                #expect(certificate.serialNumberHex == (trimmed.isEmpty ? "0" : String(trimmed)))
                #expect(certificate.serialNumberHex.first != "0" || certificate.serialNumberHex == "0")
                checked += 1
            }
        }
        #expect(checked > 50)
    }

    @Test func configuredDigestsMatchInAnyCaseWithKeytoolColonsAndSpaces() {
        let digest: [UInt8] = [0xFA, 0xC6, 0x17, 0x45]
        for text in ["FA:C6:17:45", "fac61745", " fa c6\t17 45\n", "Fa:c6:17:45"] {
            #expect(AndroidKeyAttestationVerifier.configuredDigest(text, matches: digest), "\(text)")
        }
        // Another digest, a prefix, a longer text, an odd digit, a non-hex character, nothing.
        for text in ["FA:C6:17:46", "fac617", "fac6174500", "fac61745f", "fac6174g", "fa-c6-17-45", ""] {
            #expect(!AndroidKeyAttestationVerifier.configuredDigest(text, matches: digest), "\(text)")
        }
        // Agrees with lowercase hex of the digest, for random digests and random spellings of them.
        var generator = SplitMix64(seed: 709)
        for _ in 0..<2_000 {
            let bytes = (0..<Int.random(in: 0...40, using: &generator)).map { _ in UInt8.random(in: 0...255, using: &generator) }
            var text = ""
            for character in Hex.encode(bytes) {
                text.append(Bool.random(using: &generator) ? character.uppercased() : String(character))
                if Int.random(in: 0..<5, using: &generator) == 0 { text.append([":", " ", "\t"].randomElement(using: &generator)!) }
            }
            #expect(AndroidKeyAttestationVerifier.configuredDigest(text, matches: bytes), "\(text)")
            var other = bytes
            if !other.isEmpty { other[Int.random(in: 0..<other.count, using: &generator)] ^= 0x01 }
            #expect(AndroidKeyAttestationVerifier.configuredDigest(text, matches: other) == other.isEmpty, "\(text)")
        }
    }

    @Test func revokedIntermediateIsRejected() async throws {
        // procivis' revocation test: the StrongBox intermediate of the Galaxy S25 chain marked REVOKED.
        let vector = try AndroidVector.named("procivis-one-core/galaxy-s25-strongbox-2025.pem")
        let json = #"{"entries":{"dea90f73eec5583bdc82603511ed604a":{"status":"REVOKED","reason":"KEY_COMPROMISE"}}}"#
        let list = try AttestationRevocationList(jsonData: Data(json.utf8))
        let verifier = AndroidKeyAttestationVerifier(revocationList: list, policy: .allowUnverifiedBoot)
        await expectCode("REVOKED") { _ = try await verify(vector, verifier: verifier) }
    }

    @Test func revocationListParsesGooglesFormat() throws {
        let list = try AttestationRevocationList(jsonData: TestEnvironment.vector(
            "android-key-attestation/google-android-key-attestation/status.json"))
        #expect(list.entries["cc66e9a93713b6e643b26c15879786f7"]?.status == "SUSPENDED")
        #expect(list.entries.count == 5)
        #expect(AttestationRevocationList.bundledSnapshot.entries.count == 5)
        #expect(throws: AttestationError.self) { try AttestationRevocationList(jsonData: Data("[1]".utf8)) }
    }

    @Test func chainLongerThanTheLimitIsRejected() async throws {
        let vector = try AndroidVector.named("android-keyattestation/testdata/akita/sdk34/TEE_EC_NONE.pem")
        let bytes = try vector.chainBytes()
        await expectCode("CHAIN_TOO_LONG") {
            _ = try await permissive.verify(chainData: bytes + bytes + bytes, challenge: vector.challenge, at: vector.verifyAt)
        }
    }

    @Test func intermediatesAreVerifiedOnceThenCached() async throws {
        let cache = VerifiedIssuerCache()
        let verifier = AndroidKeyAttestationVerifier(policy: .allowUnverifiedBoot, cache: cache)
        let vector = try AndroidVector.named("android-keyattestation/testdata/akita/sdk34/TEE_EC_NONE.pem")
        _ = try await verify(vector, verifier: verifier)
        let afterFirst = cache.count
        _ = try await verify(vector, verifier: verifier)
        #expect(afterFirst == 3)
        #expect(cache.count == 3)
        #expect(cache.hits == 3)
    }

    /// Certificates parsed anew (no parsed-certificate cache) are new parses: the pair is then found by the digest of
    /// its bytes, not verified again; a changed intermediate is not.
    @Test func theIssuerCacheAlsoKnowsPairsParsedAgain() async throws {
        let cache = VerifiedIssuerCache()
        let verifier = AndroidKeyAttestationVerifier(policy: .allowUnverifiedBoot, cache: cache)
        let vector = try AndroidVector.named("android-keyattestation/testdata/akita/sdk34/TEE_EC_NONE.pem")
        let ders = try vector.chain().map(\.derEncoded)
        for round in 1...2 {
            let chain = try CertificateChainDecoder.decode(derList: ders, cache: nil)
            _ = try await verifier.verify(chain: chain, challenge: vector.challenge, at: vector.verifyAt)
            #expect(cache.hits == (round - 1) * 3)
        }
        var tampered = ders
        tampered[1][tampered[1].count - 10] ^= 0x01
        let chain = try CertificateChainDecoder.decode(derList: tampered, cache: nil)
        await #expect(throws: AttestationError.self) {
            _ = try await verifier.verify(chain: chain, challenge: vector.challenge, at: vector.verifyAt)
        }
        #expect(cache.hits == 3)
    }

    @Test func hostileChainInputNeverCrashes() async throws {
        let vector = try AndroidVector.named("android-keyattestation/testdata/akita/sdk34/TEE_EC_NONE.pem")
        let der = try vector.chain().flatMap(\.derEncoded)
        var generator = SystemRandomNumberGenerator()
        for round in 0..<300 {
            var bytes = der
            for _ in 0..<(1 + round % 8) {
                let index = Int.random(in: 0..<bytes.count, using: &generator)
                bytes[index] = UInt8.random(in: 0...255, using: &generator)
            }
            if round % 5 == 0 { bytes = Array(bytes.prefix(Int.random(in: 0..<bytes.count, using: &generator))) }
            do {
                _ = try await permissive.verify(chainData: bytes, challenge: vector.challenge, at: vector.verifyAt)
            } catch {
                // Any typed failure is fine; a crash is not.
            }
        }
        for garbage in [[], [0x30], [0x30, 0x84, 0xFF, 0xFF, 0xFF, 0xFF], Array("-----BEGIN CERTIFICATE-----".utf8)] as [[UInt8]] {
            await #expect(throws: AttestationError.self) {
                _ = try await permissive.verify(chainData: garbage, challenge: [], at: Date())
            }
        }
    }
}
