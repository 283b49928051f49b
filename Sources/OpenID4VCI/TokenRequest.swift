import Foundation

/// OpenID4VCI 1.0 §6.1 — the token request of the pre-authorized code grant, an
/// `application/x-www-form-urlencoded` body (RFC 6749 §4.1.3, Appendix B). The parameters are encoded by the caller
/// (`HoldfastProtocol`'s `PercentEncoding.formValue`, the project's one form encoder).
public struct TokenRequest: Sendable, Hashable {
    /// RFC 6749 §4.1.3: the media type of the body.
    public static let mediaType = "application/x-www-form-urlencoded"

    /// `grant_type`: always the pre-authorized code grant here.
    public var grantType: String { OpenID4VCIIdentifiers.preAuthorizedCodeGrant }
    /// `pre-authorized_code`.
    public var preAuthorizedCode: String
    /// `tx_code`: the transaction code the user typed, when the offer asked for one.
    public var txCode: String?

    public enum Parameter: String, Sendable {
        case grantType = "grant_type"
        case preAuthorizedCode = "pre-authorized_code"
        case txCode = "tx_code"
    }

    public init(preAuthorizedCode: String, txCode: String? = nil) {
        self.preAuthorizedCode = preAuthorizedCode
        self.txCode = txCode
    }

    /// Reads the request from its form parameters (name → values), in this order: `grant_type` once and the
    /// pre-authorized code grant; `pre-authorized_code` once and not empty; `tx_code` at most once (RFC 6749 §3.2:
    /// parameters "MUST NOT be included more than once").
    public init(form: [String: [String]]) throws(OpenID4VCIError) {
        func single(_ parameter: Parameter) throws(OpenID4VCIError) -> String? {
            guard let values = form[parameter.rawValue] else { return nil }
            guard values.count == 1 else {
                throw OpenID4VCIError(.repeatedParameter, "\(parameter.rawValue) is given more than once", parameter: parameter.rawValue)
            }
            return values[0]
        }
        guard let grantType = try single(.grantType) else {
            throw OpenID4VCIError(.missingParameter, "grant_type is required", parameter: Parameter.grantType.rawValue)
        }
        guard grantType == OpenID4VCIIdentifiers.preAuthorizedCodeGrant else {
            throw OpenID4VCIError(.unsupportedGrantType, "only \(OpenID4VCIIdentifiers.preAuthorizedCodeGrant) is supported",
                                  parameter: Parameter.grantType.rawValue)
        }
        guard let code = try single(.preAuthorizedCode), !code.isEmpty else {
            throw OpenID4VCIError(.missingParameter, "pre-authorized_code is required", parameter: Parameter.preAuthorizedCode.rawValue)
        }
        self.init(preAuthorizedCode: code, txCode: try single(.txCode))
    }

    /// The form parameters, in order: `grant_type`, `pre-authorized_code`, then `tx_code` when there is one.
    public var formParameters: [(name: String, value: String)] {
        var parameters = [(name: Parameter.grantType.rawValue, value: grantType),
                          (name: Parameter.preAuthorizedCode.rawValue, value: preAuthorizedCode)]
        if let txCode { parameters.append((name: Parameter.txCode.rawValue, value: txCode)) }
        return parameters
    }
}
