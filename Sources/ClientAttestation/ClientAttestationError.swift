/// Why a client attestation + PoP pair was refused (`ClientAttestationVerifier`). Each check has its own case and
/// stable `code`; issuers map them to `invalid_client` (draft-ietf-oauth-attestation-based-client-auth §7).
public enum ClientAttestationError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The attestation is not a compact JWS with a supported `alg`.
    case attestationMalformed(String)
    /// `typ` is not `oauth-client-attestation+jwt`.
    case attestationWrongType(String?)
    /// `alg` is not one the verifier allows.
    case attestationAlgorithmNotAllowed(String)
    /// No trusted key for the header's `kid`.
    case attestationUntrustedKey(String?)
    /// The signature does not verify with the trusted key.
    case attestationInvalidSignature
    /// A required claim (`sub`, `exp`, `iat`, `cnf`, `iss`) is absent or of the wrong type.
    case attestationMissingClaim(String)
    /// `exp` has passed (beyond the leeway).
    case attestationExpired
    /// `iat` or `nbf` is in the future (beyond the leeway).
    case attestationNotYetValid
    /// `iss` is not the expected tenant.
    case attestationIssuerMismatch
    /// `sub` is not the expected client id.
    case attestationSubjectMismatch
    /// `cnf.jwk` is absent, private, or not an EC key this verifier can use.
    case attestationInvalidConfirmationKey
    /// The PoP is not a compact JWS with a supported `alg`.
    case popMalformed(String)
    /// `typ` is not `oauth-client-attestation-pop+jwt`.
    case popWrongType(String?)
    case popAlgorithmNotAllowed(String)
    /// The PoP does not verify with `cnf.jwk`.
    case popInvalidSignature
    /// A required PoP claim (`aud`, `jti`, `iat`) is absent or of the wrong type.
    case popMissingClaim(String)
    /// `aud` is not exactly this verifier's identifier.
    case popAudienceMismatch
    /// `jti` is empty or too long.
    case popInvalidJTI
    /// `iat` is too old or in the future.
    case popIssuedAtOutOfWindow
    /// `exp` (optional) has passed.
    case popExpired
    /// The verifier expects a challenge and the PoP has none.
    case popMissingChallenge
    /// The PoP's challenge is not the expected one.
    case popChallengeMismatch
    /// `iss` (sent by clients of draft -03 to -05) is not the attestation's `sub`.
    case popIssuerMismatch

    public var code: String {
        switch self {
        case .attestationMalformed: "CLIENT_ATTESTATION_MALFORMED"
        case .attestationWrongType: "CLIENT_ATTESTATION_WRONG_TYP"
        case .attestationAlgorithmNotAllowed: "CLIENT_ATTESTATION_ALG_NOT_ALLOWED"
        case .attestationUntrustedKey: "CLIENT_ATTESTATION_UNTRUSTED_KEY"
        case .attestationInvalidSignature: "CLIENT_ATTESTATION_INVALID_SIGNATURE"
        case .attestationMissingClaim: "CLIENT_ATTESTATION_MISSING_CLAIM"
        case .attestationExpired: "CLIENT_ATTESTATION_EXPIRED"
        case .attestationNotYetValid: "CLIENT_ATTESTATION_NOT_YET_VALID"
        case .attestationIssuerMismatch: "CLIENT_ATTESTATION_ISSUER_MISMATCH"
        case .attestationSubjectMismatch: "CLIENT_ATTESTATION_SUBJECT_MISMATCH"
        case .attestationInvalidConfirmationKey: "CLIENT_ATTESTATION_INVALID_CNF"
        case .popMalformed: "CLIENT_ATTESTATION_POP_MALFORMED"
        case .popWrongType: "CLIENT_ATTESTATION_POP_WRONG_TYP"
        case .popAlgorithmNotAllowed: "CLIENT_ATTESTATION_POP_ALG_NOT_ALLOWED"
        case .popInvalidSignature: "CLIENT_ATTESTATION_POP_INVALID_SIGNATURE"
        case .popMissingClaim: "CLIENT_ATTESTATION_POP_MISSING_CLAIM"
        case .popAudienceMismatch: "CLIENT_ATTESTATION_POP_AUDIENCE_MISMATCH"
        case .popInvalidJTI: "CLIENT_ATTESTATION_POP_INVALID_JTI"
        case .popIssuedAtOutOfWindow: "CLIENT_ATTESTATION_POP_IAT_OUT_OF_WINDOW"
        case .popExpired: "CLIENT_ATTESTATION_POP_EXPIRED"
        case .popMissingChallenge: "CLIENT_ATTESTATION_POP_MISSING_CHALLENGE"
        case .popChallengeMismatch: "CLIENT_ATTESTATION_POP_CHALLENGE_MISMATCH"
        case .popIssuerMismatch: "CLIENT_ATTESTATION_POP_ISSUER_MISMATCH"
        }
    }

    public var description: String {
        switch self {
        case .attestationMalformed(let why), .popMalformed(let why): "\(code): \(why)"
        case .attestationWrongType(let typ), .popWrongType(let typ): "\(code): got \(typ ?? "none")"
        case .attestationAlgorithmNotAllowed(let alg), .popAlgorithmNotAllowed(let alg): "\(code): \(alg)"
        case .attestationUntrustedKey(let kid): "\(code): kid \(kid ?? "none")"
        case .attestationMissingClaim(let name), .popMissingClaim(let name): "\(code): \(name)"
        default: code
        }
    }
}
