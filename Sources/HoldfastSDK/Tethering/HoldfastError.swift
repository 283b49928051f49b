import HoldfastProtocol

/// The one error type of the SDK's tethering API: a stable `code` (the tenant's codes of docs/server-api.md's API section plus
/// `NETWORK_ERROR`, `ATTESTATION_UNAVAILABLE`, `REGISTRATION_IN_PROGRESS`, `LICENSE_EXPIRED`, `NOT_CONFIGURED`,
/// `SECURE_STORAGE_UNAVAILABLE` …), a message for people, and what the tenant said when it said something.
public struct HoldfastError: Error, Sendable, Hashable, CustomStringConvertible {
    public let code: HoldfastErrorCode
    public let message: String
    /// The HTTP status, when the error is the tenant's answer.
    public let httpStatus: Int?
    /// The tenant's problem details, when it sent them.
    public let problem: ProblemDetails?
    /// The `error` of an issuer's OAuth / OpenID4VCI error answer (`invalid_grant`, `invalid_proof` …), with the
    /// code `ISSUER_ERROR`.
    public internal(set) var issuerError: String?
    /// What no stored credential holds of a verifier's request, with the code `CREDENTIAL_NOT_FOUND`
    /// (`OnlinePresentationSession.credentialNotFound`, docs/sdk.md "Holder: presentation").
    public internal(set) var missing: [MissingItem]?

    /// A network failure that asking again will not mend (a TLS handshake that failed).
    let isPermanent: Bool

    public init(_ code: HoldfastErrorCode, _ message: String, httpStatus: Int? = nil, problem: ProblemDetails? = nil) {
        self.init(code, message, httpStatus: httpStatus, problem: problem, isPermanent: false)
    }

    init(_ code: HoldfastErrorCode, _ message: String, httpStatus: Int? = nil, problem: ProblemDetails? = nil,
         isPermanent: Bool) {
        self.code = code
        self.message = message
        self.httpStatus = httpStatus
        self.problem = problem
        self.isPermanent = isPermanent
    }

    public var description: String { "\(code): \(message)" }

    /// No answer (but a failed TLS handshake), a 5xx or a 429: worth retrying after a pause.
    var isTransient: Bool {
        // 429 (the tenant's per-source limit, docs/operations.md "Configuration") passes with time, as a 5xx does.
        !isPermanent && (code == .networkError || (httpStatus.map { $0 >= 500 || $0 == 429 } ?? false))
    }

    static func notConfigured() -> HoldfastError {
        HoldfastError(.notConfigured, "call initialize(platformConfiguration:) first: tethering needs a tenant")
    }

    static func storage(_ error: SecureStorageError) -> HoldfastError {
        switch error {
        case .unavailable(let why): HoldfastError(.secureStorageUnavailable, why)
        case .corrupted(let why): HoldfastError(.secureStorageCorrupted, why)
        }
    }

    static func secureArea(_ error: SecureAreaError) -> HoldfastError {
        switch error {
        case .keyNotFound(let alias): HoldfastError(.secureAreaUnavailable, "the instance key \(alias) is missing")
        case .unavailable(let why), .corrupted(let why): HoldfastError(.secureAreaUnavailable, why)
        }
    }

    /// Any error as a `HoldfastError` (ours pass through; anything else is a bug-shaped `INVALID_RESPONSE`).
    static func wrap(_ error: any Error) -> HoldfastError {
        switch error {
        case let error as HoldfastError: error
        case let error as SecureStorageError: storage(error)
        case let error as SecureAreaError: secureArea(error)
        case is CancellationError: HoldfastError(.networkError, "cancelled")
        default: HoldfastError(.invalidResponse, String(describing: error))
        }
    }
}
