import HoldfastProtocol
import Hummingbird

/// An error that knows how it is shown to a client. The problem middleware turns every thrown error into a
/// problem response in one place (STYLE habit 5): conform a capability's typed error to this protocol and
/// throw it from a handler. Codes are `HoldfastErrorCode`s, the contract the SDK reads (`serverCodes`).
public protocol ProblemConvertible: Error {
    var problemStatus: HTTPResponse.Status { get }
    /// Stable, part of the API (`ADMIN_KEY_NOT_FOUND`); one of `HoldfastErrorCode.serverCodes`.
    var problemCode: HoldfastErrorCode { get }
    /// A short summary that does not change between occurrences.
    var problemTitle: String { get }
    /// What went wrong this time, for a person; never secrets or internals.
    var problemDetail: String? { get }
    var problemFieldErrors: [ProblemDetails.FieldError] { get }
    /// Extra response headers (`WWW-Authenticate`, `Allow`, `Retry-After`).
    var problemHeaders: HTTPFields { get }
}

extension ProblemConvertible {
    public var problemTitle: String { problemStatus.reasonPhrase }
    public var problemDetail: String? { nil }
    public var problemFieldErrors: [ProblemDetails.FieldError] { [] }
    public var problemHeaders: HTTPFields { [:] }
}
