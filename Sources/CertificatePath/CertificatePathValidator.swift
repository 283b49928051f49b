import Foundation
// The SPI gives RFC5280Policy a fixed verification time (the caller's clock), as the public initialiser does not.
@_spi(FixedExpiryValidationTime) import X509

/// The one certificate path validator of Holdfast (docs/DESIGN.md "Certificate paths"): swift-certificates'
/// `Verifier` builds the candidate paths from the leaf through the presented certificates to a trust anchor
/// (checking each signature), and each path must meet, in this order:
/// 1. ``IssuerRulesPolicy`` — every issuer a CA, with keyCertSign, within its pathLenConstraint (RFC 5280 §4.2.1.3, §4.2.1.9);
/// 2. ``ValidityPolicy`` — every certificate valid at the verification time (RFC 5280 §6.1.3);
/// 3. the profile (``DocumentSignerProfile``, ``StatusListSignerProfile``, ``RequestObjectSignerProfile``,
///    ``ClientAttestationIssuerProfile``);
/// 4. swift-certificates' `RFC5280Policy` (version, basic and name constraints, expiry).
/// The first three give a stable ``CertificatePathFailure``; when every candidate path fails, the most precise
/// failure is thrown.
///
/// A trust anchor that is the leaf itself (a pinned end-entity certificate) has no issuer: only its validity and
/// the profile's leaf rules apply.
public struct CertificatePathValidator: Sendable {
    public var anchors: [Certificate]
    /// The longest chain accepted as presented (leaf and intermediates).
    public var maximumLength: Int

    public init(anchors: [Certificate], maximumLength: Int = 5) {
        self.anchors = anchors
        self.maximumLength = maximumLength
    }

    /// Validates `chain` (DER, leaf first, as `x5c` / `x5chain` carry it) and returns the path, leaf first and
    /// trust anchor last.
    public func validate(chain der: [[UInt8]], profile: some CertificatePathProfile, at time: Date) async throws(CertificatePathFailure) -> [Certificate] {
        guard !der.isEmpty else { throw .malformed("no certificate") }
        guard der.count <= maximumLength else { throw .malformed("the chain is longer than \(maximumLength)") }
        var certificates: [Certificate] = []
        for (index, bytes) in der.enumerated() {
            do { certificates.append(try CertificateEncoding.certificate(derEncoded: bytes)) } catch {
                throw .malformed("certificate \(index): \(error)")
            }
        }
        return try await validate(chain: certificates, profile: profile, at: time)
    }

    /// Validates already parsed certificates, leaf first.
    public func validate(chain: [Certificate], profile: some CertificatePathProfile, at time: Date) async throws(CertificatePathFailure) -> [Certificate] {
        guard let leaf = chain.first else { throw .malformed("no certificate") }
        guard chain.count <= maximumLength else { throw .malformed("the chain is longer than \(maximumLength)") }
        if anchors.contains(leaf) {
            if let failure = ValidityPolicy.check([leaf], at: time) ?? profile.check([leaf]) { throw failure }
            return [leaf]
        }
        var verifier = Verifier(rootCertificates: CertificateStore(anchors)) {
            IssuerRulesPolicy()
            ValidityPolicy(time: time)
            profile
            RFC5280Policy(fixedExpiryValidationTime: time)
        }
        let result = await verifier.validate(leaf: leaf, intermediates: CertificateStore(chain.dropFirst()))
        switch result {
        case .validCertificate(let path):
            return Array(path)
        case .couldNotValidate(let failures):
            let reasons = failures.map { FailureCarrier.failure($0.policyFailureReason.description) }
            if let rank = reasons.map({ $0.rank }).max(), let best = reasons.first(where: { $0.rank == rank }) { throw best }
            throw .untrusted("no path from the leaf to a trusted anchor (by name and signature)")
        }
    }
}
