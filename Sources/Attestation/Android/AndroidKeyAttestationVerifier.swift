import Crypto
import Foundation
import Plumbing

/// Verifies an Android Key Attestation certificate chain (developer.android.com "Verify hardware-backed key pairs
/// with key attestation"; KeyDescription schema from source.android.com "Key and ID attestation").
///
/// Checks, in order, each with its own error: chain length and DER; every signature up to a trusted Google root
/// (matched by key; the root may be omitted); issuers are CAs; the attestation extension appears only in the leaf;
/// validity per `policy.expiry`; no serial on the revocation list; KeyDescription parses; challenge; package and
/// signing digest; security level; root of trust.
public struct AndroidKeyAttestationVerifier: Sendable {
    public let trustedRoots: [AttestationCertificate]
    public let revocationList: AttestationRevocationList
    public let policy: AndroidKeyAttestationPolicy
    public let maximumChainLength: Int
    private let chainVerifier: CertificateChainVerifier

    public init(trustedRoots: [AttestationCertificate] = GoogleAttestationRoots.all,
                revocationList: AttestationRevocationList = .bundledSnapshot,
                policy: AndroidKeyAttestationPolicy = .production,
                maximumChainLength: Int = CertificateChainDecoder.defaultMaximumLength,
                cache: VerifiedIssuerCache = .shared) {
        self.trustedRoots = trustedRoots
        self.revocationList = revocationList
        self.policy = policy
        self.maximumChainLength = maximumChainLength
        self.chainVerifier = CertificateChainVerifier(trustedRoots: trustedRoots, cache: cache)
    }

    /// Verifies a chain given as PEM text or concatenated DER (leaf first).
    public func verify(chainData: [UInt8], challenge: [UInt8], packageName: String? = nil,
                       signingCertificateDigests: [String] = [], at time: Date) async throws(AttestationError) -> AndroidKeyAttestationResult {
        let chain = try CertificateChainDecoder.decode(chainData, maximumLength: maximumChainLength)
        return try await verify(chain: chain, challenge: challenge, packageName: packageName,
                                signingCertificateDigests: signingCertificateDigests, at: time)
    }

    /// Verifies a parsed chain (leaf first).
    ///
    /// - Parameters:
    ///   - challenge: the expected attestationChallenge (Holdfast's binding nonce), compared in constant time.
    ///   - packageName: when set, one attested package must have this name.
    ///   - signingCertificateDigests: when not empty, one attested signing digest must be among these (hex, any case).
    ///   - time: the verification instant (validity periods, RKP expiry).
    public func verify(chain: [AttestationCertificate], challenge: [UInt8], packageName: String? = nil,
                       signingCertificateDigests: [String] = [], at time: Date) async throws(AttestationError) -> AndroidKeyAttestationResult {
        guard !chain.isEmpty else { throw .invalidFormat("certificate chain is empty") }
        guard chain.count <= maximumChainLength else { throw .chainTooLong(count: chain.count, limit: maximumChainLength) }

        let outcome = try await chainVerifier.verify(chain, caExemptIndices: policy.allowNonCAAttestationKeyCertificate ? [1] : [])

        // Chain-extension attack: a leaf key must not issue a certificate that looks like an attestation.
        for index in chain.indices.dropFirst() where chain[index].extension(KeyDescription.extensionOID) != nil {
            throw .attestationExtensionOutsideLeaf(index: index)
        }

        let remotelyProvisioned = Self.isRemotelyProvisioned(chain)
        let warnings = try checkValidity(chain, at: time, remotelyProvisioned: remotelyProvisioned)

        for certificate in chain {
            if let entry = revocationList.entry(for: certificate) {
                throw .revoked(serial: certificate.serialNumberHex, status: entry.status)
            }
        }
        if let entry = revocationList.entry(for: outcome.anchor) {
            throw .revoked(serial: outcome.anchor.serialNumberHex, status: entry.status)
        }

        guard let extensionValue = chain[0].extension(KeyDescription.extensionOID)?.contents else {
            throw .invalidFormat("the leaf has no key attestation extension (1.3.6.1.4.1.11129.2.1.17)")
        }
        let description = try KeyDescription(extensionContents: extensionValue)

        guard ConstantTime.equal(description.attestationChallenge, challenge) else {
            throw .nonceMismatch("attestationChallenge is not the expected challenge")
        }

        let application = description.attestationApplicationId
        let names = application?.packageInfos.map(\.name) ?? []
        let attestedDigests = application?.signatureDigests ?? []
        if let packageName, !names.contains(packageName) {
            throw .appIdMismatch("package \(packageName) is not among the attested packages \(names)")
        }
        if !signingCertificateDigests.isEmpty {
            guard attestedDigests.contains(where: { digest in
                signingCertificateDigests.contains { Self.configuredDigest($0, matches: digest) }
            }) else {
                throw .appIdMismatch("no attested signing-certificate digest is among the configured ones")
            }
        }
        let digests = attestedDigests.map { Hex.encode($0) }

        let weakest = min(description.attestationSecurityLevel, description.keyMintSecurityLevel)
        guard weakest >= policy.minimumSecurityLevel else {
            throw .insufficientSecurityLevel(required: policy.minimumSecurityLevel.description, actual: weakest.description)
        }

        if !policy.acceptedBootStates.isEmpty || policy.requireDeviceLocked {
            guard let root = description.rootOfTrust else { throw .bootStateRejected("rootOfTrust is absent") }
            if !policy.acceptedBootStates.isEmpty, !policy.acceptedBootStates.contains(root.verifiedBootState) {
                throw .bootStateRejected("verifiedBootState is \(root.verifiedBootState)")
            }
            if policy.requireDeviceLocked, !root.deviceLocked {
                throw .bootStateRejected("the bootloader is unlocked")
            }
        }

        return AndroidKeyAttestationResult(
            publicKey: chain[0].subjectPublicKeyInfo, keyDescription: description,
            securityLevel: description.attestationSecurityLevel, packageNames: names,
            signingCertificateDigests: digests, rootOfTrust: description.rootOfTrust,
            trustAnchorSubject: outcome.anchor.subject, isRemotelyProvisioned: remotelyProvisioned,
            warnings: warnings)
    }

    /// Validity of the certificates above the leaf, per `policy.expiry`. A not-yet-valid issuer is always refused.
    private func checkValidity(_ chain: [AttestationCertificate], at time: Date,
                               remotelyProvisioned: Bool) throws(AttestationError) -> [AttestationWarning] {
        var expired = false
        for index in chain.indices.dropFirst() {
            let certificate = chain[index]
            if time < certificate.notBefore { throw .certificateNotYetValid(index: index) }
            guard time > certificate.notAfter else { continue }
            switch policy.expiry {
            case .enforce: throw .certificateExpired(index: index)
            case .enforceForRemotelyProvisioned where remotelyProvisioned: throw .certificateExpired(index: index)
            case .acceptExpired, .enforceForRemotelyProvisioned: expired = true
            }
        }
        return expired ? [.certificateExpiredIgnored] : []
    }

    /// Whether a configured digest (hex in any case; spaces and keytool's colons ignored) spells `digest`. Compared
    /// without building strings: this runs for every configured digest of every verification.
    static func configuredDigest(_ text: String, matches digest: [UInt8]) -> Bool {
        var index = 0, high = true
        for byte in text.utf8 {
            let nibble: UInt8
            switch byte {
            case UInt8(ascii: "0") ... UInt8(ascii: "9"): nibble = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a") ... UInt8(ascii: "f"): nibble = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A") ... UInt8(ascii: "F"): nibble = byte - UInt8(ascii: "A") + 10
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r"), UInt8(ascii: ":"): continue
            default: return false
            }
            guard index < digest.count, nibble == (high ? digest[index] >> 4 : digest[index] & 0x0F) else { return false }
            if !high { index += 1 }
            high.toggle()
        }
        return high && index == digest.count
    }

    /// RKP chains have Google's "Droid CA" intermediates (O=Google LLC) between the device's attestation key and
    /// the root; factory-provisioned chains do not.
    static func isRemotelyProvisioned(_ chain: [AttestationCertificate]) -> Bool {
        chain.dropFirst().contains(where: \.isRemoteProvisioningIntermediate)
    }
}
