/// Why an App Attest or Android Key Attestation verification failed.
///
/// Every case names the step that failed; `code` is a stable machine string that is part of the API (the server
/// puts it in its RFC 9457 problem details, the CLI prints it). Several cases may share a code when they are the
/// same kind of failure seen at different steps; `reason` then says which step.
public enum AttestationError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The input is not what the format requires (bad CBOR, bad DER, missing field, wrong `fmt` …).
    case invalidFormat(String)
    /// The certificate chain has more certificates than the configured limit.
    case chainTooLong(count: Int, limit: Int)
    /// A certificate signature does not verify, or the chain does not end in a trusted root.
    case untrustedChain(String)
    /// A certificate above the leaf is not a CA (basicConstraints cA is absent or false).
    case issuerNotCertificateAuthority(index: Int)
    /// A certificate above the leaf has a keyUsage without keyCertSign (RFC 5280 §4.2.1.3).
    case issuerLacksKeyCertSign(index: Int)
    /// More CA certificates below a certificate than its pathLenConstraint allows (RFC 5280 §4.2.1.9).
    case pathLengthExceeded(index: Int)
    /// A certificate other than the leaf carries an attestation extension (the chain-extension attack).
    case attestationExtensionOutsideLeaf(index: Int)
    /// A certificate of the chain is expired at the verification time and the policy enforces expiry.
    case certificateExpired(index: Int)
    /// A certificate of the chain is not yet valid at the verification time.
    case certificateNotYetValid(index: Int)
    /// A certificate's serial number is on the revocation list (Google's attestation status list).
    case revoked(serial: String, status: String)
    /// The nonce / challenge bound into the attestation is not the expected one.
    case nonceMismatch(String)
    /// The app identity (App ID hash, package name or signing-certificate digest) is not the expected one.
    case appIdMismatch(String)
    /// App Attest AAGUID does not match the configured environment.
    case environmentMismatch(expected: String, actual: String)
    /// The key identifier does not match (client-sent key id, credential id, public-key hash).
    case keyIdMismatch(String)
    /// App Attest: the attestation's sign counter is not 0.
    case counterNotZero(UInt32)
    /// App Attest assertion: the counter is not strictly greater than the stored one.
    case counterNotIncreasing(stored: UInt32, received: UInt32)
    /// App Attest assertion: the signature does not verify under the stored public key.
    case signatureInvalid(String)
    /// Android: the attestation or KeyMint security level is below the policy's minimum.
    case insufficientSecurityLevel(required: String, actual: String)
    /// Android: the root of trust (verified boot state, device lock) is not accepted by the policy.
    case bootStateRejected(String)

    /// The stable machine code of this error.
    public var code: String {
        switch self {
        case .invalidFormat: "INVALID_FORMAT"
        case .chainTooLong: "CHAIN_TOO_LONG"
        case .untrustedChain: "UNTRUSTED_CHAIN"
        case .issuerNotCertificateAuthority: "ISSUER_NOT_CA"
        case .issuerLacksKeyCertSign: "ISSUER_NO_KEY_CERT_SIGN"
        case .pathLengthExceeded: "PATH_LENGTH_EXCEEDED"
        case .attestationExtensionOutsideLeaf: "EXTENSION_OUTSIDE_LEAF"
        case .certificateExpired: "CERTIFICATE_EXPIRED"
        case .certificateNotYetValid: "CERTIFICATE_NOT_YET_VALID"
        case .revoked: "REVOKED"
        case .nonceMismatch: "NONCE_MISMATCH"
        case .appIdMismatch: "APP_ID_MISMATCH"
        case .environmentMismatch: "ENVIRONMENT_MISMATCH"
        case .keyIdMismatch: "KEY_ID_MISMATCH"
        case .counterNotZero: "COUNTER_NOT_ZERO"
        case .counterNotIncreasing: "COUNTER_NOT_INCREASING"
        case .signatureInvalid: "SIGNATURE_INVALID"
        case .insufficientSecurityLevel: "INSUFFICIENT_SECURITY_LEVEL"
        case .bootStateRejected: "BOOT_STATE_REJECTED"
        }
    }

    /// A sentence a person can act on.
    public var reason: String {
        switch self {
        case .invalidFormat(let detail): "malformed input: \(detail)"
        case .chainTooLong(let count, let limit): "certificate chain has \(count) certificates, at most \(limit) are allowed"
        case .untrustedChain(let detail): "certificate chain is not trusted: \(detail)"
        case .issuerNotCertificateAuthority(let index): "certificate \(index) issues another certificate but is not a CA"
        case .issuerLacksKeyCertSign(let index): "certificate \(index) issues another certificate but its key usage lacks keyCertSign"
        case .pathLengthExceeded(let index): "certificate \(index) has more CA certificates below it than its pathLenConstraint allows"
        case .attestationExtensionOutsideLeaf(let index): "certificate \(index) is not the leaf but carries an attestation extension"
        case .certificateExpired(let index): "certificate \(index) is expired at the verification time"
        case .certificateNotYetValid(let index): "certificate \(index) is not yet valid at the verification time"
        case .revoked(let serial, let status): "certificate serial \(serial) is \(status) on the attestation status list"
        case .nonceMismatch(let detail): "nonce mismatch: \(detail)"
        case .appIdMismatch(let detail): "app identity mismatch: \(detail)"
        case .environmentMismatch(let expected, let actual): "environment is \(actual), expected \(expected)"
        case .keyIdMismatch(let detail): "key id mismatch: \(detail)"
        case .counterNotZero(let counter): "attestation sign counter is \(counter), expected 0"
        case .counterNotIncreasing(let stored, let received): "assertion counter \(received) is not greater than the stored \(stored)"
        case .signatureInvalid(let detail): "signature invalid: \(detail)"
        case .insufficientSecurityLevel(let required, let actual): "security level \(actual) is below the required \(required)"
        case .bootStateRejected(let detail): "root of trust rejected: \(detail)"
        }
    }

    public var description: String { "\(code): \(reason)" }
}
