import SwiftASN1
import X509

/// The rules of one profile (who may sign what) as a swift-certificates `VerifierPolicy`: ``check(_:)`` sees a
/// candidate path, leaf first and trust anchor last, after ``IssuerRulesPolicy`` and ``ValidityPolicy`` passed.
public protocol CertificatePathProfile: VerifierPolicy, Sendable {
    /// The first rule of the profile `path` breaks, if any.
    func check(_ path: [Certificate]) -> CertificatePathFailure?
}

extension CertificatePathProfile {
    public func chainMeetsPolicyRequirements(chain: UnverifiedCertificateChain) -> PolicyEvaluationResult {
        if let failure = check(Array(chain)) { return FailureCarrier.reason(failure) }
        return .meetsPolicy
    }
}

/// Rules shared by the profiles' leaves.
enum LeafRules {
    /// RFC 5280 §4.2.1.9 / §4.2.1.3: a signer of data is not a CA and, when it has a keyUsage, may make digital
    /// signatures.
    static func endEntitySigner(_ leaf: Certificate) -> CertificatePathFailure? {
        do {
            if case .isCertificateAuthority = try leaf.extensions.basicConstraints { return .profile("the signer is a CA certificate") }
            if let usage = try leaf.extensions.keyUsage, !usage.digitalSignature {
                return .profile("the signer's key usage lacks digitalSignature")
            }
        } catch {
            return .malformed("the signer's extensions: \(error)")
        }
        return nil
    }

    /// RFC 5280 §4.2.1.12: when the leaf has an extendedKeyUsage, it holds one of `allowed` (or, when `allowAny`,
    /// anyExtendedKeyUsage). Without `required`, a leaf without the extension passes.
    static func extendedKeyUsage(_ leaf: Certificate, allowed: Set<ASN1ObjectIdentifier>, required: Bool, allowAny: Bool,
                                 name: String) -> CertificatePathFailure? {
        let usages: ExtendedKeyUsage?
        do { usages = try leaf.extensions.extendedKeyUsage } catch { return .malformed("the signer's extended key usage: \(error)") }
        guard let usages else { return required ? .extendedKeyUsage("no extended key usage (\(name) required)") : nil }
        if allowAny, usages.contains(.any) { return nil }
        guard usages.contains(where: { allowed.contains(ASN1ObjectIdentifier($0)) }) else {
            return .extendedKeyUsage("extended key usage lacks \(name)")
        }
        return nil
    }
}
