import HoldfastProtocol
import Hummingbird

/// Why a verifier request failed (docs/server-api.md "Verifier"); codes are `HoldfastErrorCode`s (STYLE habit 5). What the wallet
/// posts to a session's response URI is refused in OAuth's own shape (`OAuthError`), not here.
public enum PresentationError: Error, Sendable, Equatable, ProblemConvertible {
    /// No session with this id made by the caller.
    case sessionNotFound(id: String)
    /// No session with this id that still waits for an answer (unknown, answered or expired).
    case openSessionNotFound(id: String)
    /// No session with this id whose result the `response_code` reads (wrong, used or absent code).
    case responseCodeNotFound(id: String)
    /// The certificate (by its id) is a trusted issuer already.
    case issuerTrustedAlready(id: String)
    case trustedIssuerNotFound(id: String)

    public var problemStatus: HTTPResponse.Status {
        switch self {
        case .sessionNotFound, .openSessionNotFound, .responseCodeNotFound, .trustedIssuerNotFound: .notFound
        case .issuerTrustedAlready: .conflict
        }
    }

    public var problemCode: HoldfastErrorCode {
        switch self {
        case .sessionNotFound, .openSessionNotFound, .responseCodeNotFound, .trustedIssuerNotFound: .notFound
        case .issuerTrustedAlready: .conflict
        }
    }

    public var problemTitle: String {
        switch self {
        case .sessionNotFound, .openSessionNotFound, .responseCodeNotFound: "Session not found"
        case .issuerTrustedAlready: "Issuer trusted already"
        case .trustedIssuerNotFound: "Trusted issuer not found"
        }
    }

    public var problemDetail: String? {
        switch self {
        case .sessionNotFound(let id): "no presentation session \(id.prefix(64))"
        case .openSessionNotFound(let id): "no open presentation session \(id.prefix(64))"
        case .responseCodeNotFound(let id): "no presentation session \(id.prefix(64)) for this response_code"
        case .issuerTrustedAlready(let id): "certificate \(id) is trusted already"
        case .trustedIssuerNotFound(let id): "no trusted issuer \(id.prefix(64))"
        }
    }
}

extension PresentationError: CustomStringConvertible {
    public var description: String { "\(problemCode.rawValue) (\(problemStatus.code)): \(problemDetail ?? problemTitle)" }
}
