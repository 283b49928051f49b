/// Why a message is not the OpenID4VP 1.0 (or ISO/IEC TS 18013-7:2024 Annex B) structure it claims to be, with a
/// reason a person can act on. The codes are stable: callers map them to their own errors (the SDK to
/// `REQUEST_INVALID` / `REQUEST_UNSUPPORTED`, the verifier to the OAuth `invalid_request` its response endpoint
/// answers).
public struct OpenID4VPError: Error, Sendable, Hashable, CustomStringConvertible {
    public enum Code: String, Sendable, Hashable {
        /// The bytes are not JSON, or not the JSON object the structure is.
        case malformed = "MALFORMED"
        /// An authorization request is not a URI.
        case invalidURI = "INVALID_URI"
        /// A form parameter is absent, or given more than once (RFC 6749 §3.2: "MUST NOT be included more than once").
        case parameterCount = "PARAMETER_COUNT"
    }

    public let code: Code
    /// What is wrong, naming the member.
    public let reason: String
    /// The member or parameter concerned, when there is one.
    public let parameter: String?

    public init(_ code: Code, _ reason: String, parameter: String? = nil) {
        self.code = code
        self.reason = reason
        self.parameter = parameter
    }

    public var description: String { "\(code.rawValue): \(reason)" }
}
