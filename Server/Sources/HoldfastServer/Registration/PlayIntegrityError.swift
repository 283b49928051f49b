import HoldfastProtocol

/// Why a Play Integrity token was refused (docs/server-api.md "Play Integrity"): one stable code per check, carried at the start
/// of the problem's detail, as the attestation verifiers' codes are.
enum PlayIntegrityError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The application has no `playIntegrity` settings, or is not an Android application.
    case notEnabled
    /// Not a compact JWE, or a plaintext that is not a compact JWS of the documented payload.
    case malformed(String)
    /// The JWE is not `A256KW` + `A256GCM`, or does not decrypt with the application's decryption key.
    case decryptionFailed(String)
    /// The JWS is not `ES256`, or its signature does not verify with the application's verification key.
    case signatureInvalid(String)
    /// `requestDetails.nonce` is not the binding nonce (unpadded base64url).
    case nonceMismatch
    /// `requestDetails.requestPackageName` or `appIntegrity.packageName` is not the application's `packageName`.
    case packageMismatch(String)
    /// No `appIntegrity.certificateSha256Digest` entry is one of the application's thumbprints.
    case certificateMismatch
    /// `deviceIntegrity.deviceRecognitionVerdict` does not hold the required verdict.
    case deviceIntegrityInsufficient(required: String, actual: [String])
    /// `appIntegrity.appRecognitionVerdict` is not `PLAY_RECOGNIZED` where that is required.
    case appNotRecognized(String)
    /// `requestDetails.timestampMillis` is older than `maxAgeSeconds` (or ahead of the tenant's clock) beyond the skew.
    case timestampOutOfRange

    var code: String {
        switch self {
        case .notEnabled: "PLAY_INTEGRITY_NOT_CONFIGURED"
        case .malformed: "PLAY_INTEGRITY_MALFORMED"
        case .decryptionFailed: "PLAY_INTEGRITY_DECRYPTION_FAILED"
        case .signatureInvalid: "PLAY_INTEGRITY_SIGNATURE_INVALID"
        case .nonceMismatch: "PLAY_INTEGRITY_NONCE_MISMATCH"
        case .packageMismatch: "PLAY_INTEGRITY_PACKAGE_MISMATCH"
        case .certificateMismatch: "PLAY_INTEGRITY_CERTIFICATE_MISMATCH"
        case .deviceIntegrityInsufficient: "PLAY_INTEGRITY_DEVICE_VERDICT"
        case .appNotRecognized: "PLAY_INTEGRITY_APP_NOT_RECOGNIZED"
        case .timestampOutOfRange: "PLAY_INTEGRITY_TIMESTAMP"
        }
    }

    var reason: String {
        switch self {
        case .notEnabled: "this application takes no Play Integrity token (no playIntegrity settings)"
        case .malformed(let detail): "the integrity token is malformed: \(detail)"
        case .decryptionFailed(let detail): "the integrity token does not decrypt: \(detail)"
        case .signatureInvalid(let detail): "the integrity verdict's signature does not verify: \(detail)"
        case .nonceMismatch: "requestDetails.nonce is not the binding nonce"
        case .packageMismatch(let detail): "\(detail) is not the application's packageName"
        case .certificateMismatch: "no appIntegrity.certificateSha256Digest is one of the application's thumbprints"
        case .deviceIntegrityInsufficient(let required, let actual): "deviceRecognitionVerdict \(actual) does not hold \(required)"
        case .appNotRecognized(let verdict): "appRecognitionVerdict is \(verdict), not PLAY_RECOGNIZED"
        case .timestampOutOfRange: "requestDetails.timestampMillis is outside maxAgeSeconds of the tenant's clock"
        }
    }

    var description: String { "\(code): \(reason)" }

    /// The problem: `INVALID_ATTESTATION` for what is not a token of this application at all, `INVALID_CHALLENGE` for
    /// one over another nonce (the device starts again, docs/sdk.md "Registration errors"), `ATTESTATION_FAILED` otherwise.
    var problem: TetheringError {
        switch self {
        case .notEnabled, .malformed: TetheringError.invalidAttestation(description)
        case .nonceMismatch: TetheringError.nonceMismatch(description)
        default: TetheringError.attestationFailed(description)
        }
    }
}
