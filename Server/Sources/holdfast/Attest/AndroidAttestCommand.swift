import ArgumentParser
import Attestation
import Foundation
import HoldfastServer

/// `holdfast attest android` — Android Key Attestation (developer.android.com "Verify hardware-backed key pairs with
/// key attestation"; KeyDescription 1.3.6.1.4.1.11129.2.1.17), verified by `AndroidKeyAttestationVerifier`.
struct AndroidAttestCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "android",
        abstract: "Verify an Android Key Attestation certificate chain.",
        discussion: """
        Default policy: TEE or better, verified boot with a locked bootloader, expired certificates accepted (and \
        reported as the warning certificateExpiredIgnored), Google's roots, the embedded revocation snapshot. Prints \
        {"valid": true, "publicKey": <base64 SubjectPublicKeyInfo>, "attestationVersion", "securityLevel", \
        "keyMintVersion", "keyMintSecurityLevel", "packageNames", "signingCertificateDigests", "rootOfTrust", \
        "remotelyProvisioned", "chainLength", "trustAnchor", "warnings"} or {"valid": false, "code", "reason"}. Without \
        --package or --digest that check is skipped and the warnings say so (packageNameNotChecked, \
        signingCertificateDigestNotChecked).
        """
    )

    @Option(help: ArgumentHelp("""
        The chain, leaf first: @file with PEM certificates or concatenated DER, or a JSON array / comma-separated list \
        of base64 DER certificates.
        """, valueName: "@file|list"))
    var chain: String

    @Option(help: ArgumentHelp("The expected attestationChallenge, hex.", valueName: "hex"))
    var challenge: String?

    @Option(help: ArgumentHelp("The expected attestationChallenge, base64 (instead of --challenge).", valueName: "base64"))
    var challengeBase64: String?

    @Option(help: ArgumentHelp("A package name the attestation must list.", valueName: "name"))
    var package: String?

    @Option(help: ArgumentHelp("""
        A signing-certificate SHA-256 digest, hex (colons allowed); repeat for several. One attested digest must be \
        among them.
        """, valueName: "hex"))
    var digest: [String] = []

    @Option(help: ArgumentHelp("Verification instant, ISO 8601 (default: now).", valueName: "ISO8601"))
    var at: String?

    @Option(help: ArgumentHelp("Google's attestation status list JSON, from a file or an http(s) URL, instead of the embedded snapshot.",
                               valueName: "@file|url"))
    var revocations: String?

    @Option(help: ArgumentHelp("Trust these roots (PEM or DER file; repeatable) instead of Google's.", valueName: "@pem"))
    var root: [String] = []

    @Flag(help: "Require StrongBox for both security levels.")
    var strongbox = false

    @Flag(help: "Accept any verified-boot state and an unlocked bootloader.")
    var allowUnverifiedBoot = false

    @Option(help: ArgumentHelp("""
        Expired certificates: accept (Holdfast's default, reported as a warning), google (enforce for remotely \
        provisioned chains, like Google's verifier), enforce.
        """, valueName: "accept|google|enforce"))
    var expiry: String = "accept"

    struct Inputs {
        let chain: AttestArgument.Chain
        let challenge: [UInt8]
        let packageName: String?
        let signingCertificateDigests: [String]
        let time: Date
        let revocationList: AttestationRevocationList?
        let roots: [AttestationCertificate]?
        let policy: AndroidKeyAttestationPolicy
    }

    func inputs(run: CommandRun) throws(AttestArgument.Invalid) -> Inputs {
        if let package, package.isEmpty { throw AttestArgument.Invalid("--package must not be empty") }
        var policy: AndroidKeyAttestationPolicy = allowUnverifiedBoot ? .allowUnverifiedBoot : .production
        if strongbox { policy.minimumSecurityLevel = .strongBox }
        policy.expiry = try Self.expiryPolicy(expiry)
        return Inputs(
            chain: try AttestArgument.chain(chain),
            challenge: try AttestArgument.hexOrBase64(hex: challenge, base64: challengeBase64, option: "challenge"),
            packageName: package,
            signingCertificateDigests: try digest.map { text throws(AttestArgument.Invalid) in try Self.signingDigest(text) },
            time: try AttestArgument.instant(at, run: run),
            revocationList: try revocations.flatMap { argument throws(AttestArgument.Invalid) in
                Self.url(argument) != nil ? nil : try Self.revocationList(argument)
            },
            roots: try root.isEmpty ? nil : AttestArgument.roots(root),
            policy: policy)
    }

    func outcome(run: CommandRun) async -> AttestOutcome {
        let inputs: Inputs
        do throws(AttestArgument.Invalid) { inputs = try self.inputs(run: run) } catch { return .failure(error) }
        var revocationList = inputs.revocationList ?? .bundledSnapshot
        if let revocations, let url = Self.url(revocations) {
            do {
                // The URL is the person's own choice on their own machine: any address.
                revocationList = try await RevocationListLoader.load(.url(url), allowsPrivateAddresses: true)
            } catch {
                return .failure(AttestArgument.Invalid("--revocations: \(error)"))
            }
        }
        let roots = inputs.roots ?? GoogleAttestationRoots.all
        let verifier = AndroidKeyAttestationVerifier(trustedRoots: roots, revocationList: revocationList, policy: inputs.policy)
        do throws(AttestationError) {
            let chain = try inputs.chain.certificates(maximumLength: verifier.maximumChainLength)
            let result = try await verifier.verify(
                chain: chain, challenge: inputs.challenge, packageName: inputs.packageName,
                signingCertificateDigests: inputs.signingCertificateDigests, at: inputs.time)
            var notChecked: [String] = []
            if inputs.packageName == nil { notChecked.append("packageNameNotChecked") }
            if inputs.signingCertificateDigests.isEmpty { notChecked.append("signingCertificateDigestNotChecked") }
            return .verified(result, chainLength: chain.count,
                             trustAnchor: Self.trustAnchorName(result.trustAnchorSubject, roots: roots, custom: inputs.roots != nil),
                             notChecked: notChecked)
        } catch {
            return .failure(error)
        }
    }

    func run() async throws {
        try AttestCommand.emit(await outcome(run: CommandRun.system()))
    }

    static func expiryPolicy(_ text: String) throws(AttestArgument.Invalid) -> AndroidKeyAttestationPolicy.ExpiryPolicy {
        switch text {
        case "accept": .acceptExpired
        case "google": .enforceForRemotelyProvisioned
        case "enforce": .enforce
        default: throw AttestArgument.Invalid("--expiry must be accept, google or enforce")
        }
    }

    /// A SHA-256 digest in hex (keytool's colon-separated spelling allowed), as lowercase hex.
    static func signingDigest(_ text: String) throws(AttestArgument.Invalid) -> String {
        let bytes = try AttestArgument.hex(text.replacingOccurrences(of: ":", with: ""), option: "digest")
        guard bytes.count == 32 else { throw AttestArgument.Invalid("--digest must be a SHA-256 digest (32 bytes), got \(bytes.count)") }
        return AttestOutcome.hex(bytes)
    }

    /// The argument as an http(s) URL, by the same rule as `HOLDFAST_ANDROID_REVOCATION_LIST`; nil for `@file`.
    static func url(_ argument: String) -> URL? {
        if case .url(let url)? = try? RevocationListSource(parsing: argument) { url } else { nil }
    }

    static func revocationList(_ argument: String) throws(AttestArgument.Invalid) -> AttestationRevocationList {
        let data = try AttestArgument.file(argument, option: "revocations")
        do {
            return try AttestationRevocationList(jsonData: data)
        } catch {
            throw AttestArgument.Invalid("--revocations: \(error.reason)")
        }
    }

    /// A name for the root the chain ended in: which of Google's roots, or which `--root`.
    static func trustAnchorName(_ subject: [UInt8], roots: [AttestationCertificate], custom: Bool) -> String {
        guard let index = roots.firstIndex(where: { $0.subject == subject }) else { return "unknown" }
        if custom { return "--root certificate \(index + 1)" }
        switch index {
        case 0: return "Google hardware attestation root (RSA-4096)"
        case 1: return "Google Key Attestation CA1 (P-384)"
        default: return "Google root \(index + 1)"
        }
    }
}
