import Foundation

/// RFC 9457 problem details (`application/problem+json`) with Holdfast's stable `code`: the one type the tenant
/// writes its errors with and the SDK reads them with (DESIGN.md §4 "Errors").
///
/// Members: `type` (`urn:holdfast:problem:<CODE>`, §3.1.1), `title`, `status`, `detail?`, `instance?`
/// (`urn:holdfast:request:<id>`, §3.1.5), `code`, `requestId?`, `errors?` (the fields at fault). Decoding stays
/// lenient about the RFC's optional members so that any RFC 9457 body still decodes.
public struct ProblemDetails: Codable, Sendable, Hashable, Error {
    /// One field that failed validation: `field` is a path into the request body (`name`, `items[0].id`), `code`
    /// one of the field codes below.
    public struct FieldError: Codable, Sendable, Hashable {
        /// The value is not allowed (a format, a character set, an unknown cursor).
        public static let invalidValue = "INVALID_VALUE"
        /// A number outside its range.
        public static let outOfRange = "OUT_OF_RANGE"
        /// A string longer than allowed.
        public static let tooLong = "TOO_LONG"
        /// A list with too few or too many elements.
        public static let invalidLength = "INVALID_LENGTH"
        /// A value of the wrong JSON type.
        public static let wrongType = "WRONG_TYPE"
        /// A required member is absent or null.
        public static let required = "REQUIRED"
        /// A member the server assigns; a request may not set it.
        public static let readOnly = "READ_ONLY"
        /// Another resource already has this value.
        public static let notUnique = "NOT_UNIQUE"
        /// The new value must differ from the current one.
        public static let unchanged = "UNCHANGED"
        /// A member that cannot change once set (an application's `type`).
        public static let immutable = "IMMUTABLE"
        /// A member that cannot be sent together with another one (`assertion` with `attestation`).
        public static let conflicting = "CONFLICT"
        /// Every field code the server writes.
        public static let codes: Set<String> = [invalidValue, outOfRange, tooLong, invalidLength, wrongType, required,
                                                readOnly, notUnique, unchanged, immutable,
                                                conflicting]

        public var field: String
        public var code: String
        public var detail: String

        public init(field: String, code: String, detail: String) {
            self.field = field
            self.code = code
            self.detail = detail
        }
    }

    /// RFC 9457 §3.1.1; `about:blank` when absent.
    public var type: String
    public var title: String?
    public var status: Int?
    public var detail: String?
    public var instance: String?
    public var code: HoldfastErrorCode?
    public var requestId: String?
    public var errors: [FieldError]?

    public static let mediaType = "application/problem+json"

    public init(status: Int, code: HoldfastErrorCode, title: String, detail: String? = nil, requestId: String? = nil,
                errors: [FieldError]? = nil) {
        self.type = "urn:holdfast:problem:\(code.rawValue)"
        self.title = title
        self.status = status
        self.detail = detail
        self.instance = requestId.map { "urn:holdfast:request:\($0)" }
        self.code = code
        self.requestId = requestId
        self.errors = errors
    }

    private enum CodingKeys: String, CodingKey {
        case type, title, status, detail, instance, code, requestId, errors
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        type = try container.decodeIfPresent(String.self, forKey: .type) ?? "about:blank"
        title = try container.decodeIfPresent(String.self, forKey: .title)
        status = try container.decodeIfPresent(Int.self, forKey: .status)
        detail = try container.decodeIfPresent(String.self, forKey: .detail)
        instance = try container.decodeIfPresent(String.self, forKey: .instance)
        code = try container.decodeIfPresent(HoldfastErrorCode.self, forKey: .code)
        requestId = try container.decodeIfPresent(String.self, forKey: .requestId)
        errors = try container.decodeIfPresent([FieldError].self, forKey: .errors)
    }

    /// The `code`, or the one named by a `urn:holdfast:problem:<CODE>` `type` when `code` is absent.
    public var effectiveCode: HoldfastErrorCode? {
        if let code { return code }
        let prefix = "urn:holdfast:problem:"
        guard type.hasPrefix(prefix) else { return nil }
        return HoldfastErrorCode(String(type.dropFirst(prefix.count)))
    }
}
