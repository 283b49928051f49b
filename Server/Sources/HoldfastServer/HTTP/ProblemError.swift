import HoldfastProtocol
import Hummingbird

/// A ready-made problem for the common cases, for capabilities that need no error type of their own.
public struct ProblemError: ProblemConvertible, Sendable, CustomStringConvertible {
    public var problemStatus: HTTPResponse.Status
    public var problemCode: HoldfastErrorCode
    public var problemTitle: String
    public var problemDetail: String?
    public var problemFieldErrors: [ProblemDetails.FieldError]
    public var problemHeaders: HTTPFields

    public init(status: HTTPResponse.Status, code: HoldfastErrorCode, title: String? = nil, detail: String? = nil,
                errors: [ProblemDetails.FieldError] = [], headers: HTTPFields = [:]) {
        self.problemStatus = status
        self.problemCode = code
        self.problemTitle = title ?? status.reasonPhrase
        self.problemDetail = detail
        self.problemFieldErrors = errors
        self.problemHeaders = headers
    }

    public var description: String { "\(problemCode) (\(problemStatus.code)): \(problemDetail ?? problemTitle)" }

    /// 400 `VALIDATION_FAILED` with the fields at fault.
    public static func validation(_ errors: [ProblemDetails.FieldError], detail: String? = nil) -> ProblemError {
        ProblemError(status: .badRequest, code: .validationFailed, title: "Validation failed",
                     detail: detail ?? errors.map { "\($0.field): \($0.detail)" }.joined(separator: "; "),
                     errors: errors)
    }

    /// 400 `VALIDATION_FAILED` for one field.
    public static func invalidField(_ field: String, code: String, detail: String) -> ProblemError {
        validation([ProblemDetails.FieldError(field: field, code: code, detail: detail)])
    }

    public static func payloadTooLarge(limit: Int) -> ProblemError {
        ProblemError(status: .contentTooLarge, code: .payloadTooLarge, title: "Payload too large",
                     detail: "the request body is larger than \(limit) bytes")
    }
}
