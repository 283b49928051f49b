import HoldfastProtocol
import Hummingbird

/// Why a status list request failed (docs/server-api.md "Credentials"); codes are `HoldfastErrorCode`s (STYLE habit 5).
public enum StatusListError: Error, Sendable, Equatable, ProblemConvertible {
    /// No status list with this id (or an id that is not one).
    case listNotFound(id: String)
    /// No free index could be drawn, even from a new list: the caller may try again.
    case noFreeIndex

    public var problemStatus: HTTPResponse.Status {
        switch self {
        case .listNotFound: .notFound
        case .noFreeIndex: .serviceUnavailable
        }
    }

    public var problemCode: HoldfastErrorCode {
        switch self {
        case .listNotFound: .notFound
        case .noFreeIndex: .serviceUnavailable
        }
    }

    public var problemDetail: String? {
        switch self {
        case .listNotFound(let id): "no status list \(id.prefix(64))"
        case .noFreeIndex: "no free status list index could be drawn; try again"
        }
    }
}

extension StatusListError: CustomStringConvertible {
    public var description: String { "\(problemCode.rawValue) (\(problemStatus.code)): \(problemDetail ?? problemTitle)" }
}
