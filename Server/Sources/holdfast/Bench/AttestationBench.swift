import ArgumentParser
import Attestation
import CBOR
import Crypto
import Foundation

/// `holdfast bench attestation` — App Attest attestation and Android Key Attestation verifications per second, each
/// next to the raw ECDSA verify rate of the curve its leaf certificate is signed with, measured in the same run.
///
/// DESIGN.md §3 (`Attestation`): intermediates are the same for every device, so `VerifiedIssuerCache` verifies each
/// (issuer, subject) pair once; after that one attestation should cost close to one leaf signature check, i.e. a
/// ratio (attestations/s ÷ raw verifies/s) not far below 1. The cache hits are printed to show that it worked.
struct AttestationBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "attestation",
        abstract: "App Attest and Android attestation verifications/s against raw ECDSA P-256 / P-384 verifies/s."
    )

    @OptionGroup var options: BenchOptions

    @Option(help: "App Attest vector (relative to --vectors) with attestationObjectBase64, keyIdBase64[_derived], clientDataHashBase64, appId, environment, verifyAt.")
    var appleVector = "appattest/warden-iphone11-ios16-2023.json"

    @Option(help: "Android chain, as listed in android-key-attestation/index.json (its challenge, package, digests and verifyAt are used).")
    var androidVector = "android-keyattestation/testdata/caiman/sdk36/TEE_EC_RKP.pem"

    enum Platform: String, ExpressibleByArgument, CaseIterable { case apple, android }

    @Option(help: "Measure only this platform (apple or android), e.g. to profile it on its own.")
    var only: Platform?

    func run() async throws {
        if let benchBuildWarning { print(benchBuildWarning) }
        let apple = try AppleSample(url: options.vectorURL(appleVector))
        let android = try AndroidSample(index: options.vectorURL("android-key-attestation/index.json"), file: androidVector,
                                        folder: options.vectorURL("android-key-attestation"))

        // Baselines first: one ECDSA verify over a precomputed SHA-256 digest, no parsing, no hashing.
        let rawP256 = try Self.rawVerifyRate(.p256, seconds: options.seconds)
        let rawP384 = try Self.rawVerifyRate(.p384, seconds: options.seconds)
        let raw: [LeafCurve: Rate] = [.p256: rawP256, .p384: rawP384]
        print(String(format: "raw ECDSA P-256 verify (precomputed SHA-256 digest): %.0f ops/s", rawP256.perSecond))
        print(String(format: "raw ECDSA P-384 verify (precomputed SHA-256 digest): %.0f ops/s", rawP384.perSecond))

        if only != .android { try await measureApple(apple, raw: raw) }
        if only != .apple { try await measureAndroid(android) }
    }

    private func measureApple(_ apple: AppleSample, raw rates: [LeafCurve: Rate]) async throws {
        let raw = { (curve: LeafCurve) in rates[curve]! }
        let seconds = options.seconds
        let rawP256 = raw(.p256)
        let appleCache = VerifiedIssuerCache()
        let appleVerifier = AppAttestVerifier(cache: appleCache)
        let verifyApple = { () async throws(AttestationError) in
            _ = try await appleVerifier.verifyAttestation(apple.attestation, keyId: apple.keyId, clientDataHash: apple.clientDataHash,
                                                          appId: apple.appId, environment: apple.environment, at: apple.verifyAt)
        }
        do { try await verifyApple() } catch { throw ValidationError("\(appleVector) does not verify: \(error)") }
        print("")
        print("App Attest: \(appleVector), \(apple.attestation.count)-byte attestation object, x5c of \(apple.certificateCount)")
        print("  one verification = CBOR decode + \(apple.certificateCount) certificate parses + 1 ECDSA \(apple.leafCurve) verify of the "
              + "credential certificate (+ SHA-256 of its TBS) + an issuer-cache lookup (the x5c is parsed anew each time, so by "
              + "SHA-256 over issuer and subject DER) + "
              + "SHA-256 of authData‖clientDataHash, of the public key and of the App ID + extension and authData parsing")
        for _ in 0..<Self.warmUp { try await verifyApple() }
        let (appleRate, appleBaseline) = try await measureInterleaved(seconds: seconds, baseline: try Self.rawVerifier(apple.leafCurve),
                                                                      ours: { try await verifyApple() })
        printComparison(name: "App Attest attestation verify", ours: appleRate,
                        baselineName: "raw ECDSA \(apple.leafCurve) verify, interleaved with it", baseline: appleBaseline.perSecond)
        if apple.leafCurve != .p256 {
            print(String(format: "  (against raw P-256 instead: %.2f×; the credential certificate is signed by Apple App Attestation CA 1's %@ key)",
                         appleRate.perSecond / rawP256.perSecond, apple.leafCurve.description))
        }
        await Self.printCache(appleCache, verifications: appleRate.operations + Self.warmUp + 1)
    }

    private func measureAndroid(_ android: AndroidSample) async throws {
        let seconds = options.seconds
        // Android Key Attestation, from the DER certificates a server receives (base64-decoded from its JSON).
        let androidCache = VerifiedIssuerCache()
        let androidVerifier = AndroidKeyAttestationVerifier(policy: android.policy, cache: androidCache)
        let ders = try CertificateChainDecoder.decode(android.chain).map(\.derEncoded)
        let verifyAndroid = { (chain: [AttestationCertificate]) async throws(AttestationError) in
            _ = try await androidVerifier.verify(chain: chain, challenge: android.challenge, packageName: android.packageName,
                                                 signingCertificateDigests: android.digests, at: android.verifyAt)
        }
        do { try await verifyAndroid(CertificateChainDecoder.decode(derList: ders)) } catch {
            throw ValidationError("\(androidVector) does not verify: \(error)")
        }
        print("")
        print("Android: \(androidVector), chain of \(android.certificateCount) (\(ders.map(\.count).reduce(0, +)) bytes DER), "
              + "policy \(android.policyName)")
        print("  one verification = 1 certificate parse (the leaf; the \(android.certificateCount - 1) above it come from the parsed-certificate "
              + "cache by their DER bytes) + 1 ECDSA \(android.leafCurve) verify of the leaf "
              + "(+ SHA-256 of its TBS) + issuer-cache lookups for the certificates above it (by parse) + KeyDescription parse + "
              + "revocation, challenge, package, digest, security-level and root-of-trust checks")
        let parseCache = ParsedCertificateCache()
        let verifyAndroidDER = { () async throws(AttestationError) in
            try await verifyAndroid(CertificateChainDecoder.decode(derList: ders, cache: parseCache))
        }
        for _ in 0..<Self.warmUp { try await verifyAndroidDER() }
        let (androidRate, androidBaseline) = try await measureInterleaved(
            seconds: seconds, baseline: try Self.rawVerifier(android.leafCurve), ours: { try await verifyAndroidDER() })
        printComparison(name: "Android key attestation verify", ours: androidRate,
                        baselineName: "raw ECDSA \(android.leafCurve) verify, interleaved with it",
                        baseline: androidBaseline.perSecond)
        await Self.printCache(androidCache, verifications: androidRate.operations + Self.warmUp + 1)
        print(String(format: "  parsed-certificate cache: %d hits (%.2f per verification); %d certificates parsed once",
                     parseCache.hits, Double(parseCache.hits) / Double(androidRate.operations + Self.warmUp), parseCache.count))
        // Where the rest goes, each against the raw verify measured alongside it: every certificate parsed, the same
        // verification from already parsed certificates, and from the PEM file's text.
        let baseline = try Self.rawVerifier(android.leafCurve)
        let part = seconds / 2
        let parsed = try CertificateChainDecoder.decode(derList: ders)
        let (uncachedRate, uncachedBaseline) = try await measureInterleaved(seconds: part, baseline: baseline) {
            try await verifyAndroid(CertificateChainDecoder.decode(derList: ders, cache: nil))
        }
        let (parsedRate, parsedBaseline) = try await measureInterleaved(seconds: part, baseline: baseline) {
            try await verifyAndroid(parsed)
        }
        let (pemRate, pemBaseline) = try await measureInterleaved(seconds: part, baseline: baseline) {
            try await verifyAndroid(CertificateChainDecoder.decode(android.chain))
        }
        print(String(format: "  without the parsed-certificate cache (every certificate parsed): %.0f ops/s (%.2f×)",
                     uncachedRate.perSecond, uncachedRate.perSecond / uncachedBaseline.perSecond))
        print(String(format: "  from parsed certificates: %.0f ops/s (%.2f×); from the PEM file's text: %.0f ops/s (%.2f×)",
                     parsedRate.perSecond, parsedRate.perSecond / parsedBaseline.perSecond,
                     pemRate.perSecond, pemRate.perSecond / pemBaseline.perSecond))

        // The two parses every verification makes, each against the raw verify measured alongside it.
        let leafDER = ders[0]
        let keyDescription = try AttestationCertificate(derEncoded: leafDER).extension(KeyDescription.extensionOID)?.value ?? []
        let (leafRate, leafBaseline) = try await measureInterleaved(seconds: part, baseline: baseline) {
            _ = try AttestationCertificate(derEncoded: leafDER)
        }
        let (descriptionRate, descriptionBaseline) = try await measureInterleaved(seconds: part, baseline: baseline) {
            _ = try KeyDescription(extensionValue: keyDescription)
        }
        print(String(format: "  of which: the leaf's parse (%d bytes) %.1f µs = %.0f%% of one raw verify; its KeyDescription (%d bytes) "
                     + "%.1f µs = %.0f%%", leafDER.count, 1e6 / leafRate.perSecond, 100 * leafBaseline.perSecond / leafRate.perSecond,
                     keyDescription.count, 1e6 / descriptionRate.perSecond,
                     100 * descriptionBaseline.perSecond / descriptionRate.perSecond))
    }

    static let warmUp = 200

    /// One ECDSA verify of a valid signature over a precomputed SHA-256 digest, with a fresh key of `curve`.
    static func rawVerifyRate(_ curve: LeafCurve, seconds: Double) throws -> Rate {
        try measureRate(seconds: seconds, warmUp: warmUp, rawVerifier(curve))
    }

    /// The raw verify as a closure (a fresh key of `curve`, a valid signature, a precomputed digest).
    static func rawVerifier(_ curve: LeafCurve) throws -> () throws -> Void {
        let digest = SHA256.hash(data: Array("holdfast attestation bench".utf8))
        switch curve {
        case .p256:
            let key = P256.Signing.PrivateKey()
            let signature = try key.signature(for: digest), publicKey = key.publicKey
            return {
                guard publicKey.isValidSignature(signature, for: digest) else { throw CommandFailure(.failure, "P-256 verify failed") }
            }
        case .p384:
            let key = P384.Signing.PrivateKey()
            let signature = try key.signature(for: digest), publicKey = key.publicKey
            return {
                guard publicKey.isValidSignature(signature, for: digest) else { throw CommandFailure(.failure, "P-384 verify failed") }
            }
        }
    }

    static func printCache(_ cache: VerifiedIssuerCache, verifications: Int) async {
        let hits = cache.hits, pairs = cache.count
        print(String(format: "  issuer cache: %d hits in %d verifications (%.2f per verification); %d issuer/subject pairs verified once",
                     hits, verifications, Double(hits) / Double(verifications), pairs))
    }
}

/// The curve of the key that signed a leaf certificate, told by its issuer's uncompressed point size.
enum LeafCurve: CustomStringConvertible {
    case p256, p384

    init(issuer: AttestationCertificate) throws {
        switch (issuer.publicKeyBits.first, issuer.publicKeyBits.count) {
        case (0x04, 65): self = .p256
        case (0x04, 97): self = .p384
        default: throw ValidationError("the leaf is not signed with an ECDSA P-256 or P-384 key; choose another vector")
        }
    }

    var description: String { self == .p256 ? "P-256" : "P-384" }
}
