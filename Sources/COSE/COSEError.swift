import CBOR

/// Everything that can go wrong reading, signing or verifying COSE structures, each with a stable ``code``.
public enum COSEError: Error, Sendable, Hashable {
    /// The bytes are not CBOR (the underlying error says where).
    case malformedCBOR(CBORError)
    /// Well-formed CBOR that is not the COSE structure expected (RFC 9052 §4.2, §7).
    case malformedStructure(String, offset: Int?)
    /// A tag other than 18 (COSE_Sign1) in front of the structure.
    case unexpectedTag(UInt64)
    /// A header label in both the protected and unprotected buckets (RFC 9052 §3).
    case duplicateHeaderLabel(String)
    /// No `alg` header, or an algorithm this implementation does not support.
    case unsupportedAlgorithm(String)
    /// The key does not belong to the algorithm's curve (for example ES384 with a P-256 key).
    case keyAlgorithmMismatch(algorithm: String, key: String)
    /// A COSE_Key that is not a well-formed EC2 key (RFC 9053 §7.1), or whose coordinates do not fit the curve.
    case invalidKey(String)
    /// A signature that does not have the raw `r‖s` length of the algorithm, or a DER signature that is not strict.
    case invalidSignatureEncoding(String)
    /// The payload is detached and none was given, or it is attached and another was given.
    case payloadMismatch(String)
    /// The signature does not verify.
    case signatureInvalid
    /// The signer failed.
    case signingFailed(String)

    public var code: String {
        switch self {
        case .malformedCBOR: "COSE_MALFORMED_CBOR"
        case .malformedStructure: "COSE_MALFORMED_STRUCTURE"
        case .unexpectedTag: "COSE_UNEXPECTED_TAG"
        case .duplicateHeaderLabel: "COSE_DUPLICATE_HEADER_LABEL"
        case .unsupportedAlgorithm: "COSE_UNSUPPORTED_ALGORITHM"
        case .keyAlgorithmMismatch: "COSE_KEY_ALGORITHM_MISMATCH"
        case .invalidKey: "COSE_INVALID_KEY"
        case .invalidSignatureEncoding: "COSE_INVALID_SIGNATURE_ENCODING"
        case .payloadMismatch: "COSE_PAYLOAD_MISMATCH"
        case .signatureInvalid: "COSE_SIGNATURE_INVALID"
        case .signingFailed: "COSE_SIGNING_FAILED"
        }
    }
}

extension COSEError: CustomStringConvertible {
    public var description: String {
        switch self {
        case .malformedCBOR(let error): "\(code): \(error)"
        case let .malformedStructure(reason, offset): "\(code): \(reason)" + (offset.map { " at byte \($0)" } ?? "")
        case .unexpectedTag(let tag): "\(code): tag \(tag) is not COSE_Sign1 (18)"
        case .duplicateHeaderLabel(let label): "\(code): label \(label) in both header buckets"
        case .unsupportedAlgorithm(let alg): "\(code): \(alg)"
        case let .keyAlgorithmMismatch(alg, key): "\(code): \(alg) cannot be used with a \(key) key"
        case .invalidKey(let reason), .invalidSignatureEncoding(let reason), .payloadMismatch(let reason),
             .signingFailed(let reason):
            "\(code): \(reason)"
        case .signatureInvalid: "\(code): signature does not verify"
        }
    }
}

extension CBORError {
    /// Structure errors met while reading COSE are reported as malformed structure, other CBOR errors as such.
    var asCOSEError: COSEError {
        switch self {
        case .typeMismatch, .missingKey, .indexOutOfRange, .integerOutOfRange, .invalidValue:
            .malformedStructure(description, offset: offset)
        default:
            .malformedCBOR(self)
        }
    }
}
