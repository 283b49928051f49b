import Foundation

/// Checks a leaf-first certificate chain up to one of a set of trusted roots (RFC 5280 §6.1, reduced to what
/// attestation needs): every signature, CA status of every issuer, and the anchor matched **by public key**, so that
/// a re-issued root certificate of the same key (Google's 2016/2019/2021/2022 RSA roots) anchors the same chains,
/// and a chain may either include its root or stop just below it.
///
/// Validity periods are reported, not enforced: each platform's verifier applies its own expiry policy.
struct CertificateChainVerifier: Sendable {
    let trustedRoots: [AttestationCertificate]
    let cache: VerifiedIssuerCache

    struct Outcome: Sendable {
        /// The trusted root the chain ends in.
        let anchor: AttestationCertificate
        /// Whether the chain's last certificate is the anchor itself (same key) rather than signed by it.
        let includesRoot: Bool
    }

    /// - Parameter caExemptIndices: issuers allowed to lack cA=TRUE (see `AndroidKeyAttestationPolicy.allowNonCAAttestationKeyCertificate`).
    func verify(_ chain: [AttestationCertificate], caExemptIndices: Set<Int> = []) async throws(AttestationError) -> Outcome {
        guard let top = chain.last else { throw .invalidFormat("certificate chain is empty") }
        for index in 0..<(chain.count - 1) {
            let subject = chain[index], issuer = chain[index + 1]
            guard issuer.isCertificateAuthority || caExemptIndices.contains(index + 1) else { throw .issuerNotCertificateAuthority(index: index + 1) }
            // The leaf is unique per attestation: caching its verdict would only fill the cache.
            let valid = index == 0
                ? cache.isValidUncached(subject, issuedBy: issuer)
                : cache.isValid(subject, issuedBy: issuer)
            guard valid else { throw .untrustedChain("signature of certificate \(index) does not verify with certificate \(index + 1)") }
        }
        if let root = trustedRoots.first(where: { $0.subjectPublicKeyInfoBytes.sameBytes(as: top.subjectPublicKeyInfoBytes) }) {
            return Outcome(anchor: root, includesRoot: true)
        }
        // Prefer roots whose subject names the top certificate's issuer; fall back to trying every root key.
        let ordered = trustedRoots.filter { $0.subjectBytes.sameBytes(as: top.issuerBytes) }
            + trustedRoots.filter { !$0.subjectBytes.sameBytes(as: top.issuerBytes) }
        for root in ordered where root.isCertificateAuthority || root.subjectBytes.sameBytes(as: root.issuerBytes) {
            let valid = chain.count == 1
                ? CertificateSignature.isValid(top, issuedBy: root)
                : cache.isValid(top, issuedBy: root)
            if valid { return Outcome(anchor: root, includesRoot: false) }
        }
        throw .untrustedChain("the chain does not end in a trusted root")
    }
}
