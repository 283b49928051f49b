import HoldfastProtocol
import HTTPTypes
import Hummingbird

/// Why a tethering request (holder applications, registration, licenses, instance calls) failed. The codes are
/// `HoldfastErrorCode`s, shared with the SDK; this type only decides status, title and headers (STYLE habit 5). A
/// caller the authenticators refuse (a token or DPoP proof that does not authenticate, a revoked instance, dev mode
/// not allowed) gets an `AuthenticationError`, whatever the capability.
///
/// Statuses: 400 for requests that are malformed or use a spent challenge, 403 for refusals of a well-formed request
/// (attestation required or refused, an instance still pending), 404 for unknown resources, 409 for conflicts.
public struct TetheringError: ProblemConvertible, Sendable, CustomStringConvertible {
    public let code: HoldfastErrorCode
    public let problemStatus: HTTPResponse.Status
    public let problemTitle: String
    public let problemDetail: String?
    public var problemFieldErrors: [ProblemDetails.FieldError]
    public var problemHeaders: HTTPFields

    public init(_ code: HoldfastErrorCode, status: HTTPResponse.Status, title: String, detail: String? = nil,
                errors: [ProblemDetails.FieldError] = [], headers: HTTPFields = [:]) {
        self.code = code
        self.problemStatus = status
        self.problemTitle = title
        self.problemDetail = detail
        self.problemFieldErrors = errors
        self.problemHeaders = headers
    }

    public var problemCode: HoldfastErrorCode { code }
    public var description: String { "\(code.rawValue) (\(problemStatus.code)): \(problemDetail ?? problemTitle)" }

    static func applicationNotFound(_ id: String) -> TetheringError {
        TetheringError(.applicationNotFound, status: .notFound, title: "Application not found",
                       detail: "no holder application with id \(id.prefix(100))")
    }

    static func instanceNotFound(_ id: String) -> TetheringError {
        TetheringError(.instanceNotFound, status: .notFound, title: "Instance not found",
                       detail: "no instance with id \(id.prefix(100)) in this application")
    }

    static func applicationNameTaken(_ name: String) -> TetheringError {
        TetheringError(.applicationNameTaken, status: .conflict, title: "Application name taken",
                       detail: "another holder application is named \(name)",
                       errors: [ProblemDetails.FieldError(field: "name", code: ProblemDetails.FieldError.notUnique,
                                                          detail: "another holder application has this name")])
    }

    static let invalidChallenge = TetheringError(
        .invalidChallenge, status: .badRequest, title: "Invalid challenge",
        detail: "the challenge is unknown, belongs to another application, or was already used; request a new one")

    /// docs/sdk.md "Registration errors": the attestation is over another nonce than the one recomputed from this
    /// challenge and key; the device fetches a new challenge and starts again.
    static func nonceMismatch(_ detail: String) -> TetheringError {
        TetheringError(.invalidChallenge, status: .badRequest, title: "Invalid challenge",
                       detail: "the attestation is not over the binding nonce of this challenge and key (\(detail)); request a new challenge")
    }

    /// docs/operations.md "A store that lost its memory": the ephemeral store lost its memory after this challenge was issued.
    static let challengeIssuedBeforeStoreReset = TetheringError(
        .issuedBeforeStoreReset, status: .badRequest, title: "Challenge issued before a store reset",
        detail: "the server's ephemeral store lost its memory after this challenge was issued; request a new one")

    static let challengeExpired = TetheringError(
        .challengeExpired, status: .badRequest, title: "Challenge expired",
        detail: "the challenge's lifetime has passed; request a new one")

    static func invalidAttestation(_ detail: String) -> TetheringError {
        TetheringError(.invalidAttestation, status: .badRequest, title: "Invalid attestation", detail: detail)
    }

    static func attestationFailed(_ detail: String) -> TetheringError {
        TetheringError(.attestationFailed, status: .forbidden, title: "Attestation failed", detail: detail)
    }

    static let attestationRequired = TetheringError(
        .attestationRequired, status: .forbidden, title: "Attestation required",
        detail: "this application requires platform attestation (App Attest or Android Key Attestation)")

    /// docs/server-api.md "Play Integrity": the application's `playIntegrity.required` and a registration without `integrityToken`.
    static let integrityTokenRequired = TetheringError(
        .attestationRequired, status: .forbidden, title: "Attestation required",
        detail: "this application requires a Play Integrity token (integrityToken)")

    static let instancePending = TetheringError(
        .instancePending, status: .forbidden, title: "Instance pending",
        detail: "the instance waits for an administrator's approval")
}
