import HoldfastProtocol
import HTTPTypes
import Hummingbird

/// Why a tethering request (holder applications, registration, licenses, instance calls) failed. The codes are
/// `HoldfastErrorCode`s, shared with the SDK; this type only decides status, title and field errors (STYLE habit 5).
/// A caller the authenticators refuse (a token or DPoP proof that does not authenticate, a revoked instance, dev mode
/// not allowed) gets an `AuthenticationError`, whatever the capability. Validation failures stay
/// `ProblemError.validation` (400 `VALIDATION_FAILED` with the fields at fault), as everywhere.
///
/// Statuses: 400 for requests that are malformed or use a spent challenge, 403 for refusals of a well-formed request
/// (attestation required or refused, an instance still pending), 404 for unknown resources, 409 for conflicts.
public enum TetheringError: Error, Sendable, Equatable, ProblemConvertible {
    /// No holder application with this id (or an id that is not one).
    case applicationNotFound(String)
    /// No instance with this id in the application.
    case instanceNotFound(String)
    /// Another holder application has this name.
    case applicationNameTaken(String)
    /// The challenge is unknown, belongs to another application, or was already used.
    case invalidChallenge
    /// docs/sdk.md "Registration errors": the attestation is over another nonce than the one recomputed from this
    /// challenge and key (why, in the verifier's words); the device fetches a new challenge and starts again.
    case nonceMismatch(String)
    /// docs/operations.md "A store that lost its memory": the ephemeral store lost its memory after this challenge was
    /// issued.
    case challengeIssuedBeforeStoreReset
    /// The challenge's lifetime has passed.
    case challengeExpired
    /// The evidence is not an attestation of this application at all (why).
    case invalidAttestation(String)
    /// The evidence is an attestation, and it is refused (why).
    case attestationFailed(String)
    /// The application requires platform attestation and the request has none.
    case attestationRequired
    /// docs/server-api.md "Play Integrity": the application's `playIntegrity.required` and a registration without
    /// `integrityToken`.
    case integrityTokenRequired
    /// The instance waits for an administrator's approval.
    case instancePending

    public var problemStatus: HTTPResponse.Status {
        switch self {
        case .applicationNotFound, .instanceNotFound: .notFound
        case .applicationNameTaken: .conflict
        case .invalidChallenge, .nonceMismatch, .challengeIssuedBeforeStoreReset, .challengeExpired, .invalidAttestation: .badRequest
        case .attestationFailed, .attestationRequired, .integrityTokenRequired, .instancePending: .forbidden
        }
    }

    public var problemCode: HoldfastErrorCode {
        switch self {
        case .applicationNotFound: .applicationNotFound
        case .instanceNotFound: .instanceNotFound
        case .applicationNameTaken: .applicationNameTaken
        case .invalidChallenge, .nonceMismatch: .invalidChallenge
        case .challengeIssuedBeforeStoreReset: .issuedBeforeStoreReset
        case .challengeExpired: .challengeExpired
        case .invalidAttestation: .invalidAttestation
        case .attestationFailed: .attestationFailed
        case .attestationRequired, .integrityTokenRequired: .attestationRequired
        case .instancePending: .instancePending
        }
    }

    public var problemTitle: String {
        switch self {
        case .applicationNotFound: "Application not found"
        case .instanceNotFound: "Instance not found"
        case .applicationNameTaken: "Application name taken"
        case .invalidChallenge, .nonceMismatch: "Invalid challenge"
        case .challengeIssuedBeforeStoreReset: "Challenge issued before a store reset"
        case .challengeExpired: "Challenge expired"
        case .invalidAttestation: "Invalid attestation"
        case .attestationFailed: "Attestation failed"
        case .attestationRequired, .integrityTokenRequired: "Attestation required"
        case .instancePending: "Instance pending"
        }
    }

    public var problemDetail: String? {
        switch self {
        case .applicationNotFound(let id): "no holder application with id \(id.prefix(100))"
        case .instanceNotFound(let id): "no instance with id \(id.prefix(100)) in this application"
        case .applicationNameTaken(let name): "another holder application is named \(name)"
        case .invalidChallenge:
            "the challenge is unknown, belongs to another application, or was already used; request a new one"
        case .nonceMismatch(let reason):
            "the attestation is not over the binding nonce of this challenge and key (\(reason)); request a new challenge"
        case .challengeIssuedBeforeStoreReset:
            "the server's ephemeral store lost its memory after this challenge was issued; request a new one"
        case .challengeExpired: "the challenge's lifetime has passed; request a new one"
        case .invalidAttestation(let reason), .attestationFailed(let reason): reason
        case .attestationRequired: "this application requires platform attestation (App Attest or Android Key Attestation)"
        case .integrityTokenRequired: "this application requires a Play Integrity token (integrityToken)"
        case .instancePending: "the instance waits for an administrator's approval"
        }
    }

    public var problemFieldErrors: [ProblemDetails.FieldError] {
        guard case .applicationNameTaken = self else { return [] }
        return [ProblemDetails.FieldError(field: "name", code: ProblemDetails.FieldError.notUnique,
                                          detail: "another holder application has this name")]
    }
}

extension TetheringError: CustomStringConvertible {
    public var description: String { "\(problemCode.rawValue) (\(problemStatus.code)): \(problemDetail ?? problemTitle)" }
}
