/// Every failure of the JOSE module, each with a stable machine `code` that is part of the API (servers map it to
/// RFC 9457 problem details; clients may switch on it). The associated values are for people; never branch on them.
public enum JOSEError: Error, Sendable, Hashable, CustomStringConvertible {
    // MARK: serialization
    /// The input is longer than the configured bound.
    case inputTooLarge(limit: Int)
    /// Not `a.b.c` (JWS) or `a.b.c.d.e` (JWE) compact serialization.
    case malformedCompactSerialization(String)
    /// A segment is not unpadded base64url (RFC 7515 §2).
    case malformedBase64URL(part: String)
    /// A header or payload is not the JSON the spec requires.
    case malformedJSON(String)
    /// The JOSE header is missing a member or has one of the wrong type.
    case malformedHeader(String)

    // MARK: JWS (RFC 7515)
    /// `alg: none` — never accepted (RFC 7518 §3.6, RFC 8725 §3.2).
    case algorithmNone
    /// An `alg` (or `enc`) this module does not implement.
    case unsupportedAlgorithm(String)
    /// An `alg` this module implements but the caller did not allow.
    case algorithmNotAllowed(String)
    /// `crit` lists a header this verifier does not understand, or is malformed (RFC 7515 §4.1.11).
    case unsupportedCriticalHeader([String])
    /// The signature is not the fixed-length `r ‖ s` of the algorithm (RFC 7518 §3.4).
    case invalidSignatureLength(expected: Int, actual: Int)
    /// The signature does not verify.
    case invalidSignature
    /// The key does not fit the algorithm (e.g. a P-384 key for ES256).
    case keyAlgorithmMismatch(String)
    /// The verifier was told to take the key from a header that is absent (`jwk`, `x5c`, `kid`).
    case missingVerificationKey(String)
    /// The `x5c` header is malformed, or its leaf certificate has no usable EC public key.
    case malformedCertificateChain(String)
    /// The caller's chain validator refused the `x5c` chain.
    case certificateChainRejected(String)

    // MARK: JWK (RFC 7517 / 7518 §6)
    /// A JWK that is not a valid key of its type (wrong coordinate length, point not on the curve …).
    case invalidKey(String)
    /// A `kty` this module does not handle for the requested use.
    case unsupportedKeyType(String)
    /// A `crv` this module does not handle (e.g. X25519 for ECDH-ES).
    case unsupportedCurve(String)
    /// A private key (`d`) where only a public key may appear (e.g. a `jwk` header).
    case privateKeyNotAllowed

    // MARK: JWT (RFC 7519)
    /// A claim the caller requires is absent.
    case missingClaim(String)
    /// A claim has the wrong JSON type.
    case malformedClaim(String)
    /// `exp` is in the past, beyond the leeway.
    case tokenExpired
    /// `nbf` is in the future, beyond the leeway.
    case tokenNotYetValid
    /// `iat` is in the future beyond the leeway, or older than the allowed age.
    case issuedAtOutOfRange
    /// `iss` is not the expected issuer.
    case issuerMismatch
    /// `aud` does not contain the expected audience.
    case audienceMismatch
    /// `sub` is not the expected subject.
    case subjectMismatch
    /// The `typ` header is not the expected one (RFC 8725 §3.11).
    case typeMismatch(expected: String, actual: String?)
    /// `cnf` does not bind the expected key (RFC 7800).
    case confirmationMismatch

    // MARK: JWE (RFC 7516 / RFC 7518 §4.6)
    /// `zip` is not supported (compression before encryption leaks; RFC 8725 §3.6).
    case compressionNotSupported
    /// `epk` is absent or not an EC public key.
    case missingEphemeralKey
    /// ECDH-ES direct key agreement must have an empty JWE Encrypted Key (RFC 7518 §4.6).
    case encryptedKeyNotEmpty
    /// The initialization vector is not 96 bits (RFC 7518 §5.3).
    case invalidInitializationVector
    /// The authentication tag is not 128 bits (RFC 7518 §5.3).
    case invalidAuthenticationTag
    /// AES-GCM authentication failed: tampered ciphertext, tag, header, or the wrong key.
    case decryptionFailed

    // MARK: DPoP (RFC 9449 §4.3)
    /// `typ` is not `dpop+jwt`.
    case dpopInvalidType(String?)
    /// The `jwk` header is absent.
    case dpopMissingKey
    /// The `jwk` header carries a private key.
    case dpopPrivateKey
    /// A required claim (`htm`, `htu`, `iat`, `jti`) is absent or of the wrong type.
    case dpopMissingClaim(String)
    /// `jti` is empty or too long.
    case dpopInvalidJTI
    /// `htm` does not match the request method.
    case dpopMethodMismatch
    /// `htu` does not match the request URI.
    case dpopURIMismatch
    /// `iat` is outside the accepted window.
    case dpopIssuedAtOutOfWindow
    /// An access token was presented but the proof has no `ath`.
    case dpopMissingAccessTokenHash
    /// `ath` is not the hash of the presented access token.
    case dpopAccessTokenHashMismatch
    /// The server demands a nonce and the proof has none (the server answers `use_dpop_nonce`).
    case dpopMissingNonce
    /// The proof's nonce is not the one the server demands.
    case dpopNonceMismatch
    /// The proof key is not the key the access token is bound to (`cnf.jkt`).
    case dpopKeyMismatch

    /// The stable machine code of the error.
    public var code: String {
        switch self {
        case .inputTooLarge: "JOSE_INPUT_TOO_LARGE"
        case .malformedCompactSerialization: "JOSE_MALFORMED_COMPACT"
        case .malformedBase64URL: "JOSE_MALFORMED_BASE64URL"
        case .malformedJSON: "JOSE_MALFORMED_JSON"
        case .malformedHeader: "JOSE_MALFORMED_HEADER"
        case .algorithmNone: "JOSE_ALG_NONE"
        case .unsupportedAlgorithm: "JOSE_UNSUPPORTED_ALG"
        case .algorithmNotAllowed: "JOSE_ALG_NOT_ALLOWED"
        case .unsupportedCriticalHeader: "JOSE_UNSUPPORTED_CRIT"
        case .invalidSignatureLength: "JOSE_INVALID_SIGNATURE_LENGTH"
        case .invalidSignature: "JOSE_INVALID_SIGNATURE"
        case .keyAlgorithmMismatch: "JOSE_KEY_ALG_MISMATCH"
        case .missingVerificationKey: "JOSE_MISSING_KEY"
        case .malformedCertificateChain: "JOSE_MALFORMED_X5C"
        case .certificateChainRejected: "JOSE_X5C_REJECTED"
        case .invalidKey: "JOSE_INVALID_KEY"
        case .unsupportedKeyType: "JOSE_UNSUPPORTED_KTY"
        case .unsupportedCurve: "JOSE_UNSUPPORTED_CRV"
        case .privateKeyNotAllowed: "JOSE_PRIVATE_KEY_NOT_ALLOWED"
        case .missingClaim: "JWT_MISSING_CLAIM"
        case .malformedClaim: "JWT_MALFORMED_CLAIM"
        case .tokenExpired: "JWT_EXPIRED"
        case .tokenNotYetValid: "JWT_NOT_YET_VALID"
        case .issuedAtOutOfRange: "JWT_IAT_OUT_OF_RANGE"
        case .issuerMismatch: "JWT_ISSUER_MISMATCH"
        case .audienceMismatch: "JWT_AUDIENCE_MISMATCH"
        case .subjectMismatch: "JWT_SUBJECT_MISMATCH"
        case .typeMismatch: "JOSE_TYP_MISMATCH"
        case .confirmationMismatch: "JWT_CNF_MISMATCH"
        case .compressionNotSupported: "JWE_ZIP_NOT_SUPPORTED"
        case .missingEphemeralKey: "JWE_MISSING_EPK"
        case .encryptedKeyNotEmpty: "JWE_ENCRYPTED_KEY_NOT_EMPTY"
        case .invalidInitializationVector: "JWE_INVALID_IV"
        case .invalidAuthenticationTag: "JWE_INVALID_TAG"
        case .decryptionFailed: "JWE_DECRYPTION_FAILED"
        case .dpopInvalidType: "DPOP_INVALID_TYP"
        case .dpopMissingKey: "DPOP_MISSING_JWK"
        case .dpopPrivateKey: "DPOP_PRIVATE_JWK"
        case .dpopMissingClaim: "DPOP_MISSING_CLAIM"
        case .dpopInvalidJTI: "DPOP_INVALID_JTI"
        case .dpopMethodMismatch: "DPOP_HTM_MISMATCH"
        case .dpopURIMismatch: "DPOP_HTU_MISMATCH"
        case .dpopIssuedAtOutOfWindow: "DPOP_IAT_OUT_OF_WINDOW"
        case .dpopMissingAccessTokenHash: "DPOP_MISSING_ATH"
        case .dpopAccessTokenHashMismatch: "DPOP_ATH_MISMATCH"
        case .dpopMissingNonce: "DPOP_MISSING_NONCE"
        case .dpopNonceMismatch: "DPOP_NONCE_MISMATCH"
        case .dpopKeyMismatch: "DPOP_JKT_MISMATCH"
        }
    }

    public var description: String {
        switch self {
        case .inputTooLarge(let limit): "\(code): input longer than \(limit) bytes"
        case .malformedCompactSerialization(let why): "\(code): \(why)"
        case .malformedBase64URL(let part): "\(code): \(part) is not unpadded base64url"
        case .malformedJSON(let why): "\(code): \(why)"
        case .malformedHeader(let why): "\(code): \(why)"
        case .unsupportedAlgorithm(let alg): "\(code): \(alg)"
        case .algorithmNotAllowed(let alg): "\(code): \(alg)"
        case .unsupportedCriticalHeader(let names): "\(code): \(names.joined(separator: ", "))"
        case .invalidSignatureLength(let expected, let actual): "\(code): expected \(expected) bytes, got \(actual)"
        case .keyAlgorithmMismatch(let why): "\(code): \(why)"
        case .missingVerificationKey(let why): "\(code): \(why)"
        case .malformedCertificateChain(let why): "\(code): \(why)"
        case .certificateChainRejected(let why): "\(code): \(why)"
        case .invalidKey(let why): "\(code): \(why)"
        case .unsupportedKeyType(let kty): "\(code): \(kty)"
        case .unsupportedCurve(let crv): "\(code): \(crv)"
        case .missingClaim(let name): "\(code): \(name)"
        case .malformedClaim(let name): "\(code): \(name)"
        case .typeMismatch(let expected, let actual): "\(code): expected \(expected), got \(actual ?? "none")"
        case .dpopInvalidType(let actual): "\(code): got \(actual ?? "none")"
        case .dpopMissingClaim(let name): "\(code): \(name)"
        default: code
        }
    }
}
