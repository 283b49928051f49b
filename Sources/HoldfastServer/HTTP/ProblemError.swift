import Hummingbird

/// A ready-made problem for the common cases, for capabilities that need no error type of their own.
public struct ProblemError: ProblemConvertible, Sendable, CustomStringConvertible {
    public var problemStatus: HTTPResponse.Status
    public var problemCode: String
    public var problemTitle: String
    public var problemDetail: String?
    public var problemFieldErrors: [ProblemDetails.FieldError]
    public var problemHeaders: HTTPFields

    public init(status: HTTPResponse.Status, code: String, title: String? = nil, detail: String? = nil,
                errors: [ProblemDetails.FieldError] = [], headers: HTTPFields = [:]) {
        self.problemStatus = status
        self.problemCode = code
        self.problemTitle = title ?? status.reasonPhrase
        self.problemDetail = detail
        self.problemFieldErrors = errors
        self.problemHeaders = headers
    }

    public var description: String { "\(problemCode) (\(problemStatus.code)): \(problemDetail ?? problemTitle)" }

    /// The stable codes of the server skeleton; capabilities add their own beside their errors.
    public enum Code {
        public static let badRequest = "BAD_REQUEST"
        public static let invalidJSON = "INVALID_JSON"
        public static let validationFailed = "VALIDATION_FAILED"
        public static let unauthenticated = "UNAUTHENTICATED"
        public static let forbidden = "FORBIDDEN"
        public static let notFound = "NOT_FOUND"
        public static let methodNotAllowed = "METHOD_NOT_ALLOWED"
        public static let conflict = "CONFLICT"
        public static let payloadTooLarge = "PAYLOAD_TOO_LARGE"
        public static let unsupportedMediaType = "UNSUPPORTED_MEDIA_TYPE"
        public static let rateLimited = "RATE_LIMITED"
        public static let internalError = "INTERNAL_ERROR"
        public static let serviceUnavailable = "SERVICE_UNAVAILABLE"
    }

    /// 400 `VALIDATION_FAILED` with the fields at fault.
    public static func validation(_ errors: [ProblemDetails.FieldError], detail: String? = nil) -> ProblemError {
        ProblemError(status: .badRequest, code: Code.validationFailed, title: "Validation failed",
                     detail: detail ?? errors.map { "\($0.field): \($0.detail)" }.joined(separator: "; "),
                     errors: errors)
    }

    /// 400 `VALIDATION_FAILED` for one field.
    public static func invalidField(_ field: String, code: String, detail: String) -> ProblemError {
        validation([ProblemDetails.FieldError(field: field, code: code, detail: detail)])
    }

    public static func notFound(code: String = Code.notFound, detail: String) -> ProblemError {
        ProblemError(status: .notFound, code: code, detail: detail)
    }

    public static func payloadTooLarge(limit: Int) -> ProblemError {
        ProblemError(status: .contentTooLarge, code: Code.payloadTooLarge, title: "Payload too large",
                     detail: "the request body is larger than \(limit) bytes")
    }
}
