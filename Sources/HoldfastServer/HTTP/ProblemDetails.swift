/// RFC 9457 — the body of every error response (`application/problem+json`), with Holdfast's stable machine
/// `code` (DESIGN.md §4 "Errors") and, for validation failures, the fields at fault.
public struct ProblemDetails: Codable, Sendable, Equatable {
    /// One field that failed validation: `field` is a path into the request body (`name`, `items[0].id`).
    public struct FieldError: Codable, Sendable, Equatable {
        public var field: String
        public var code: String
        public var detail: String

        public init(field: String, code: String, detail: String) {
            self.field = field
            self.code = code
            self.detail = detail
        }
    }

    /// RFC 9457 §3.1.1 — a URI naming the problem type: `urn:holdfast:problem:<CODE>`.
    public var type: String
    public var title: String
    public var status: Int
    public var detail: String?
    /// RFC 9457 §3.1.5 — this occurrence: `urn:holdfast:request:<request id>`.
    public var instance: String?
    public var code: String
    public var requestId: String?
    public var errors: [FieldError]?

    public init(status: Int, code: String, title: String, detail: String? = nil, requestID: String? = nil,
                errors: [FieldError]? = nil) {
        self.type = "urn:holdfast:problem:\(code)"
        self.title = title
        self.status = status
        self.detail = detail
        self.instance = requestID.map { "urn:holdfast:request:\($0)" }
        self.code = code
        self.requestId = requestID
        self.errors = errors
    }

    public static let mediaType = "application/problem+json"
}
