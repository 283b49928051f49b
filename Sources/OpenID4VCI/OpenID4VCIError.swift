/// Why a document or message is not the OpenID4VCI 1.0 structure it claims to be, with a reason a person can act
/// on. The codes are stable: callers map them to their own errors (the SDK to `CREDENTIAL_OFFER_INVALID` and
/// `ISSUER_METADATA_INVALID`, the issuer to the OAuth `error` its endpoint answers).
public struct OpenID4VCIError: Error, Sendable, Hashable, CustomStringConvertible {
    public enum Code: String, Sendable, Hashable {
        /// The bytes are not JSON, or not the JSON object the structure is (a member missing or of another type).
        case malformed = "MALFORMED"
        /// A URI is not the form the structure is passed in (a Credential Offer URI without either parameter).
        case invalidURI = "INVALID_URI"
        /// A form parameter appears more than once (RFC 6749 §3.2: "MUST NOT be included more than once").
        case repeatedParameter = "REPEATED_PARAMETER"
        /// A required member or parameter is absent or empty.
        case missingParameter = "MISSING_PARAMETER"
        /// The token request's `grant_type` is not the pre-authorized code grant.
        case unsupportedGrantType = "UNSUPPORTED_GRANT_TYPE"
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
