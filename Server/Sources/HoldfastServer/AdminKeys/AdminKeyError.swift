import HoldfastProtocol
import Hummingbird
import OpenID4VCI

/// Why an admin key operation failed; codes are part of the API.
public enum AdminKeyError: Error, Sendable, Equatable, ProblemConvertible {
    /// No key, a malformed key, an unknown key, a wrong secret or a revoked key: all look the same to the
    /// caller (RFC 6750 §3.1 `invalid_token`), so a probe learns nothing.
    case unauthenticated(credentialsPresented: Bool)
    case notFound(id: String)
    /// The caller tried to revoke itself while it is the last active key.
    case lastAdminKey
    /// An active key whose scope is not one the route accepts.
    case insufficientScope(required: String)

    public var problemStatus: HTTPResponse.Status {
        switch self {
        case .unauthenticated: .unauthorized
        case .notFound: .notFound
        case .lastAdminKey: .conflict
        case .insufficientScope: .forbidden
        }
    }

    public var problemCode: HoldfastErrorCode {
        switch self {
        case .unauthenticated: .unauthenticated
        case .notFound: .adminKeyNotFound
        case .lastAdminKey: .lastAdminKey
        case .insufficientScope: .insufficientScope
        }
    }

    public var problemTitle: String {
        switch self {
        case .unauthenticated: "Unauthenticated"
        case .notFound: "Admin key not found"
        case .lastAdminKey: "Last admin key"
        case .insufficientScope: "Insufficient scope"
        }
    }

    public var problemDetail: String? {
        switch self {
        case .unauthenticated: "a valid admin API key is required as Authorization: Bearer hfk_…"
        case .notFound(let id): "no admin key with id \(id)"
        case .lastAdminKey: "this is the last active admin key; create another before revoking it"
        case .insufficientScope(let required): "this key's scope does not allow this operation; it needs a key of scope \(required.replacingOccurrences(of: " ", with: " or "))"
        }
    }

    public var problemHeaders: HTTPFields {
        if case .insufficientScope(let required) = self {
            return [.wwwAuthenticate: #"Bearer realm="holdfast-admin", error="\#(OAuthErrorCode.insufficientScope.rawValue)", scope="\#(required)""#]
        }
        guard case .unauthenticated(let presented) = self else { return [:] }
        var headers = HTTPFields()
        // RFC 6750 §3: no error code when the request carried no credentials at all.
        headers[.wwwAuthenticate] = presented ? #"Bearer realm="holdfast-admin", error="\#(OAuthErrorCode.invalidToken.rawValue)""#
                                              : #"Bearer realm="holdfast-admin""#
        return headers
    }
}

extension AdminKeyError: CustomStringConvertible {
    public var description: String { "\(problemCode): \(problemDetail ?? problemTitle)" }
}
