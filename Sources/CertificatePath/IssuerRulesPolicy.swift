import Foundation
import SwiftASN1
import X509

/// RFC 5280's rules for every certificate used as an issuer (all but the leaf, the trust anchor included), with a
/// stable failure each:
/// - §4.2.1.9 basicConstraints with `cA` TRUE;
/// - §4.2.1.3 keyUsage, when present, with `keyCertSign`;
/// - §4.2.1.9 `pathLenConstraint`: no more non-self-issued CA certificates below it than it allows.
/// `RFC5280Policy` checks the first and third too (with free-text reasons); it does not check keyUsage.
public struct IssuerRulesPolicy: VerifierPolicy, Sendable {
    public let verifyingCriticalExtensions: [ASN1ObjectIdentifier] = [
        .X509ExtensionID.basicConstraints, .X509ExtensionID.keyUsage,
    ]

    public init() {}

    public func chainMeetsPolicyRequirements(chain: UnverifiedCertificateChain) -> PolicyEvaluationResult {
        if let failure = Self.check(Array(chain)) { return FailureCarrier.reason(failure) }
        return .meetsPolicy
    }

    /// The first issuer rule `path` (leaf first) breaks, if any.
    public static func check(_ path: [Certificate]) -> CertificatePathFailure? {
        guard path.count > 1 else { return nil }
        // Non-self-issued CA certificates between the leaf and the issuer at `index` (RFC 5280 §6.1.4 (l), (m)).
        var caCertificatesBelow = 0
        for index in 1..<path.count {
            let issuer = path[index]
            let constraints: BasicConstraints?
            let usage: KeyUsage?
            do {
                constraints = try issuer.extensions.basicConstraints
                usage = try issuer.extensions.keyUsage
            } catch {
                return .malformed("certificate \(index): \(error)")
            }
            guard case .isCertificateAuthority(let pathLength) = constraints else { return .issuerNotCertificateAuthority(index: index) }
            if let usage, !usage.keyCertSign { return .issuerLacksKeyCertSign(index: index) }
            if let pathLength, pathLength < caCertificatesBelow { return .pathLengthExceeded(index: index) }
            if issuer.issuer != issuer.subject { caCertificatesBelow += 1 }
        }
        return nil
    }
}

/// RFC 5280 §6.1.3 (a)(2): every certificate of the path, the anchor included, valid at the verification time,
/// with a stable failure naming the certificate (`RFC5280Policy`'s expiry policy gives a free-text one).
public struct ValidityPolicy: VerifierPolicy, Sendable {
    public let verifyingCriticalExtensions: [ASN1ObjectIdentifier] = []
    public let time: Date

    public init(time: Date) {
        self.time = time
    }

    public func chainMeetsPolicyRequirements(chain: UnverifiedCertificateChain) -> PolicyEvaluationResult {
        if let failure = Self.check(Array(chain), at: time) { return FailureCarrier.reason(failure) }
        return .meetsPolicy
    }

    public static func check(_ path: [Certificate], at time: Date) -> CertificatePathFailure? {
        for (index, certificate) in path.enumerated() {
            if time < certificate.notValidBefore { return .notYetValid(index: index) }
            if time > certificate.notValidAfter { return .expired(index: index) }
        }
        return nil
    }
}
