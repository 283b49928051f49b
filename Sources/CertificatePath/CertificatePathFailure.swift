import X509

/// Why a certificate path was refused, each with a stable ``code`` (docs/security.md "Certificate paths"). `index` is the
/// certificate's position in the path, the leaf being 0 and the trust anchor last.
public enum CertificatePathFailure: Error, Sendable, Hashable, CustomStringConvertible {
    /// The chain is empty, longer than allowed, or a certificate is not DER X.509.
    case malformed(String)
    /// No path from the leaf to a trusted anchor: no issuer by name, or no issuer's signature verifies.
    case untrusted(String)
    /// RFC 5280 §4.2.1.9: a certificate used as an issuer is not a CA (basicConstraints cA absent or false).
    case issuerNotCertificateAuthority(index: Int)
    /// RFC 5280 §4.2.1.3: a certificate used as an issuer has a keyUsage without keyCertSign.
    case issuerLacksKeyCertSign(index: Int)
    /// RFC 5280 §4.2.1.9: more CA certificates below an issuer than its pathLenConstraint allows.
    case pathLengthExceeded(index: Int)
    /// RFC 5280 §6.1.3 (a)(2): a certificate of the path has expired at the verification time.
    case expired(index: Int)
    /// RFC 5280 §6.1.3 (a)(2): a certificate of the path is not yet valid at the verification time.
    case notYetValid(index: Int)
    /// The leaf's extendedKeyUsage (RFC 5280 §4.2.1.12) lacks the usage the profile requires.
    case extendedKeyUsage(String)
    /// Another rule of the profile (key usage, basic constraints of the leaf, subject alternative name, the anchor).
    case profile(String)
    /// Any other RFC 5280 rule swift-certificates' `RFC5280Policy` applies (version, name constraints).
    case rfc5280(String)

    /// Stable code, the same for every message of a case.
    public var code: String {
        switch self {
        case .malformed: "CERT_PATH_MALFORMED"
        case .untrusted: "CERT_PATH_UNTRUSTED"
        case .issuerNotCertificateAuthority: "CERT_ISSUER_NOT_CA"
        case .issuerLacksKeyCertSign: "CERT_ISSUER_NO_KEY_CERT_SIGN"
        case .pathLengthExceeded: "CERT_PATH_LENGTH_EXCEEDED"
        case .expired: "CERT_EXPIRED"
        case .notYetValid: "CERT_NOT_YET_VALID"
        case .extendedKeyUsage: "CERT_EXTENDED_KEY_USAGE"
        case .profile: "CERT_PROFILE"
        case .rfc5280: "CERT_PATH_RFC5280"
        }
    }

    public var description: String {
        switch self {
        case .malformed(let detail), .untrusted(let detail), .extendedKeyUsage(let detail), .profile(let detail), .rfc5280(let detail):
            "\(code): \(detail)"
        case .issuerNotCertificateAuthority(let index): "\(code): certificate \(index) issues a certificate but is not a CA"
        case .issuerLacksKeyCertSign(let index): "\(code): certificate \(index) issues a certificate but its key usage lacks keyCertSign"
        case .pathLengthExceeded(let index): "\(code): certificate \(index) has more CA certificates below it than its pathLenConstraint"
        case .expired(let index): "\(code): certificate \(index) has expired"
        case .notYetValid(let index): "\(code): certificate \(index) is not yet valid"
        }
    }

    /// How precise the failure is: when several candidate paths fail, the validator reports a failure of the
    /// issuer rules, validity or profile before a generic RFC 5280 one, and that before "no path".
    var rank: Int {
        switch self {
        case .malformed, .untrusted: 0
        case .rfc5280: 1
        default: 2
        }
    }
}

/// Carries a ``CertificatePathFailure`` through swift-certificates' `PolicyFailureReason` (a string) and back.
enum FailureCarrier {
    static let separator = "\u{1F}"

    static func reason(_ failure: CertificatePathFailure) -> PolicyEvaluationResult {
        let encoded: String
        switch failure {
        case .issuerNotCertificateAuthority(let index): encoded = "ca\(separator)\(index)"
        case .issuerLacksKeyCertSign(let index): encoded = "kcs\(separator)\(index)"
        case .pathLengthExceeded(let index): encoded = "pl\(separator)\(index)"
        case .expired(let index): encoded = "exp\(separator)\(index)"
        case .notYetValid(let index): encoded = "nyv\(separator)\(index)"
        case .extendedKeyUsage(let detail): encoded = "eku\(separator)\(detail)"
        case .profile(let detail): encoded = "prof\(separator)\(detail)"
        case .malformed(let detail): encoded = "mal\(separator)\(detail)"
        case .untrusted(let detail): encoded = "unt\(separator)\(detail)"
        case .rfc5280(let detail): encoded = "rfc\(separator)\(detail)"
        }
        return .failsToMeetPolicy(reason: "holdfast\(separator)" + encoded)
    }

    /// The failure a reason carries; a reason written by swift-certificates' own policies is `.rfc5280`.
    static func failure(_ reason: String) -> CertificatePathFailure {
        let parts = reason.split(separator: Character(separator), maxSplits: 2, omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 3, parts[0] == "holdfast" else { return .rfc5280(reason) }
        let index = Int(parts[2]) ?? -1
        switch parts[1] {
        case "ca": return .issuerNotCertificateAuthority(index: index)
        case "kcs": return .issuerLacksKeyCertSign(index: index)
        case "pl": return .pathLengthExceeded(index: index)
        case "exp": return .expired(index: index)
        case "nyv": return .notYetValid(index: index)
        case "eku": return .extendedKeyUsage(parts[2])
        case "prof": return .profile(parts[2])
        case "mal": return .malformed(parts[2])
        case "unt": return .untrusted(parts[2])
        default: return .rfc5280(parts[2])
        }
    }
}
