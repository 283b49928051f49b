import HoldfastProtocol
import HTTPTypes
import Hummingbird
import OpenID4VCI

/// Why a caller authenticated by a device key was refused before its handler ran: the instance routes of every
/// capability (a license token with a DPoP proof, `InstanceAuthenticator`; the dev-mode guard some of them ask for)
/// and the SCA wallet routes (a DPoP proof of the wallet key, `SCAWalletAuthenticator`). Services that re-check the
/// caller inside a racing update (a rotation, a renewal) refuse with the same errors. The codes are
/// `HoldfastErrorCode`s, shared with the SDK; this type decides status, title and headers (STYLE habit 5). Admin API
/// keys have their own (`AdminKeyError`).
public enum AuthenticationError: ProblemConvertible, Sendable {
    /// 401 with `WWW-Authenticate: DPoP` (RFC 9449 §7.1): the token or the proof does not authenticate; `error` is
    /// the challenge's error parameter.
    case unauthenticated(HoldfastErrorCode, String, error: OAuthErrorCode = .invalidToken)
    /// RFC 9449 §8: 401 `use_dpop_nonce` with a fresh nonce to retry with.
    case useDPoPNonce(String)
    /// 403: the instance was deleted or rejected, or its application deleted.
    case instanceRevoked(String = "the instance was deleted or rejected; register again")
    /// 403: `X-Holdfast-Dev-Mode` for an application that does not allow it (`DevModeGuard`).
    case devModeNotAllowed

    public var problemStatus: HTTPResponse.Status {
        switch self {
        case .unauthenticated, .useDPoPNonce: .unauthorized
        case .instanceRevoked, .devModeNotAllowed: .forbidden
        }
    }

    public var problemCode: HoldfastErrorCode {
        switch self {
        case .unauthenticated(let code, _, _): code
        case .useDPoPNonce: .useDPoPNonce
        case .instanceRevoked: .instanceRevoked
        case .devModeNotAllowed: .devModeNotAllowed
        }
    }

    public var problemTitle: String {
        switch self {
        case .unauthenticated: "Unauthenticated"
        case .useDPoPNonce: "DPoP nonce required"
        case .instanceRevoked: "Instance revoked"
        case .devModeNotAllowed: "Dev mode not allowed"
        }
    }

    public var problemDetail: String? {
        switch self {
        case .unauthenticated(_, let detail, _): detail
        case .useDPoPNonce: "retry with the nonce of the DPoP-Nonce header in the proof"
        case .instanceRevoked(let detail): detail
        case .devModeNotAllowed:
            "X-Holdfast-Dev-Mode is accepted only for applications with developmentIntegrityAllowed on a non-production channel"
        }
    }

    public var problemHeaders: HTTPFields {
        var headers = HTTPFields()
        switch self {
        case .unauthenticated(_, _, let error):
            headers[.wwwAuthenticate] = #"DPoP algs="ES256", error="\#(error.rawValue)""#
        case .useDPoPNonce(let nonce):
            headers[.wwwAuthenticate] = HoldfastHeaders.useDPoPNonceChallenge
            if let name = HTTPField.Name(HoldfastHeaders.dpopNonce) { headers[name] = nonce }
        case .instanceRevoked, .devModeNotAllowed:
            break
        }
        return headers
    }
}

extension AuthenticationError: CustomStringConvertible {
    public var description: String { "\(problemCode.rawValue) (\(problemStatus.code)): \(problemDetail ?? problemTitle)" }
}
