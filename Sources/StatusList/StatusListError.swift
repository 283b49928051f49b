import CertificatePath

/// Why a status list or status list token was refused (draft-ietf-oauth-status-list §4, §5, §8.3), each with a
/// stable code.
public enum StatusListError: Error, Sendable, Hashable, CustomStringConvertible {
    case unsupportedBits(Int)
    case indexOutOfRange(Int)
    case valueTooLarge(UInt8, bits: Int)
    /// `lst` is not a complete zlib stream.
    case compressedListInvalid(String)
    /// The decompressed list would exceed the reader's bound.
    case listTooLarge(limit: Int)
    /// The token is not the JWT or CWT structure of §5 (the message says what).
    case malformedToken(String)
    /// The `typ` header is not `statuslist+jwt` / `application/statuslist+cwt` (§5.1, §5.2).
    case wrongType(String?)
    /// A required claim is absent (§5.1: `sub`, `iat`, `status_list`).
    case missingClaim(String)
    /// The signature does not verify with the signer's key.
    case signatureInvalid
    /// The signer certificate does not chain to a trusted anchor, or is outside its validity or profile.
    case signerUntrusted(String)
    /// The signer's certificate path was refused by the path validator; the code is the path failure's
    /// (`CertificatePathFailure.code`: `CERT_ISSUER_NOT_CA`, `CERT_EXPIRED`, …).
    case signerCertificatePath(CertificatePathFailure)
    /// `sub` is not the URI the referenced token points at (§8.3 step 4).
    case subjectMismatch(expected: String, found: String)
    /// `exp` has passed (§8.3 step 5).
    case expired
    /// `iat` lies in the future beyond the allowed clock skew.
    case issuedInFuture
    /// Signing the token failed in the signer.
    case signingFailed(String)

    public var code: String {
        switch self {
        case .unsupportedBits: "STATUS_LIST_UNSUPPORTED_BITS"
        case .indexOutOfRange: "STATUS_LIST_INDEX_OUT_OF_RANGE"
        case .valueTooLarge: "STATUS_LIST_VALUE_TOO_LARGE"
        case .compressedListInvalid: "STATUS_LIST_COMPRESSION_INVALID"
        case .listTooLarge: "STATUS_LIST_TOO_LARGE"
        case .malformedToken: "STATUS_LIST_TOKEN_MALFORMED"
        case .wrongType: "STATUS_LIST_TOKEN_WRONG_TYPE"
        case .missingClaim: "STATUS_LIST_TOKEN_MISSING_CLAIM"
        case .signatureInvalid: "STATUS_LIST_TOKEN_SIGNATURE_INVALID"
        case .signerUntrusted: "STATUS_LIST_TOKEN_SIGNER_UNTRUSTED"
        case .signerCertificatePath(let failure): failure.code
        case .subjectMismatch: "STATUS_LIST_TOKEN_SUBJECT_MISMATCH"
        case .expired: "STATUS_LIST_TOKEN_EXPIRED"
        case .issuedInFuture: "STATUS_LIST_TOKEN_ISSUED_IN_FUTURE"
        case .signingFailed: "STATUS_LIST_TOKEN_SIGNING_FAILED"
        }
    }

    public var description: String {
        switch self {
        case .unsupportedBits(let bits): "\(bits) bits per status is not 1, 2, 4 or 8"
        case .indexOutOfRange(let index): "index \(index) is outside the list"
        case .valueTooLarge(let value, let bits): "status \(value) does not fit in \(bits) bits"
        case .compressedListInvalid(let message): "lst is not a zlib stream: \(message)"
        case .listTooLarge(let limit): "the decompressed list exceeds \(limit) bytes"
        case .malformedToken(let message): "malformed status list token: \(message)"
        case .wrongType(let typ): "typ \(typ ?? "(none)") is not a status list token's"
        case .missingClaim(let name): "the token has no \(name) claim"
        case .signatureInvalid: "the token's signature does not verify"
        case .signerUntrusted(let message): "the token's signer is not trusted: \(message)"
        case .signerCertificatePath(let failure): "the token's signer is not trusted: \(failure)"
        case .subjectMismatch(let expected, let found): "sub \(found) is not the referenced URI \(expected)"
        case .expired: "the token has expired (exp)"
        case .issuedInFuture: "the token's iat is in the future"
        case .signingFailed(let message): "signing failed: \(message)"
        }
    }
}
