import Foundation

/// Checks a leaf-first certificate chain up to one of a set of trusted roots (RFC 5280 §6.1, reduced to what
/// attestation needs): every signature, the issuer rules of every issuer (the same as the CertificatePath module's
/// `IssuerRulesPolicy`: basicConstraints cA, keyUsage keyCertSign when present, pathLenConstraint; read once per
/// parsed certificate), and the anchor matched **by public key**, so that
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

    /// - Parameter caExemptIndices: issuers allowed to lack cA=TRUE, and so the keyCertSign and pathLenConstraint rules
    ///   that presuppose a CA (see `AndroidKeyAttestationPolicy.allowNonCAAttestationKeyCertificate`).
    func verify(_ chain: [AttestationCertificate], caExemptIndices: Set<Int> = []) async throws(AttestationError) -> Outcome {
        guard let top = chain.last else { throw .invalidFormat("certificate chain is empty") }
        for index in 0..<(chain.count - 1) {
            let subject = chain[index], issuer = chain[index + 1]
            if !caExemptIndices.contains(index + 1) {
                try Self.checkIssuerRules(chain, issuerIndex: index + 1)
            }
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
        for root in ordered where root.isCertificateAuthority && root.mayCertifyKeys || root.subjectBytes.sameBytes(as: root.issuerBytes) {
            let valid = chain.count == 1
                ? CertificateSignature.isValid(top, issuedBy: root)
                : cache.isValid(top, issuedBy: root)
            if valid {
                // The root's own pathLenConstraint over the CA certificates of the chain below it.
                if let limit = root.pathLengthConstraint, Self.caCertificates(chain, below: chain.count) > limit {
                    throw .pathLengthExceeded(index: chain.count)
                }
                return Outcome(anchor: root, includesRoot: false)
            }
        }
        throw .untrustedChain("the chain does not end in a trusted root")
    }

    /// RFC 5280 §4.2.1.9 and §4.2.1.3 for the certificate at `issuerIndex` of `chain` (leaf first): a CA, allowed to
    /// sign certificates, with no more non-self-issued CA certificates below it than its pathLenConstraint.
    static func checkIssuerRules(_ chain: [AttestationCertificate], issuerIndex: Int) throws(AttestationError) {
        let issuer = chain[issuerIndex]
        guard issuer.isCertificateAuthority else { throw .issuerNotCertificateAuthority(index: issuerIndex) }
        guard issuer.mayCertifyKeys else { throw .issuerLacksKeyCertSign(index: issuerIndex) }
        if let limit = issuer.pathLengthConstraint, caCertificates(chain, below: issuerIndex) > limit {
            throw .pathLengthExceeded(index: issuerIndex)
        }
    }

    /// The non-self-issued certificates between the leaf and `index` (RFC 5280 §6.1.4 (l)).
    static func caCertificates(_ chain: [AttestationCertificate], below index: Int) -> Int {
        var count = 0
        for position in 1..<max(1, index) where !chain[position].subjectBytes.sameBytes(as: chain[position].issuerBytes) { count += 1 }
        return count
    }
}
