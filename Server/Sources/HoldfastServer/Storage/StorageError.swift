import HoldfastProtocol
import Hummingbird
import PostgresKit

/// A storage failure with a stable code. Start-up reports these as they are (`holdfast serve` prints the code and
/// the message). At request time `DATABASE_UNAVAILABLE` is a 503 with `Retry-After`, and every other storage code a
/// 500 `INTERNAL_ERROR`; neither shows the underlying message to the client (the server logs it).
public struct StorageError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Code {
        public static let unavailable = "DATABASE_UNAVAILABLE"
        public static let migrationFailed = "MIGRATION_FAILED"
        public static let invalidMigrations = "INVALID_MIGRATIONS"
        /// A stored row holds a value this version cannot read.
        public static let corruptRow = "CORRUPT_ROW"
        /// `openapi.json` is missing from the server's resources (a broken build).
        public static let openAPIDocumentMissing = "OPENAPI_DOCUMENT_MISSING"
        /// `verifier.html`, `.css` or `.js` is missing from the server's resources (a broken build).
        public static let verifierPageMissing = "VERIFIER_PAGE_MISSING"
        /// An in-process server stopped before it listened.
        public static let serverNotStarted = "SERVER_NOT_STARTED"
    }

    public let code: String
    public let message: String

    public init(code: String, message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { "\(code): \(message)" }
}

extension StorageError: ProblemConvertible {
    /// Seconds a client is asked to wait before retrying while the database is unreachable (RFC 9110 §10.2.3).
    static let retryAfterSeconds = 5

    public var problemStatus: HTTPResponse.Status {
        code == Code.unavailable ? .serviceUnavailable : .internalServerError
    }

    public var problemCode: HoldfastErrorCode {
        code == Code.unavailable ? .databaseUnavailable : .internalError
    }

    public var problemTitle: String {
        code == Code.unavailable ? "Database unavailable" : "Internal server error"
    }

    public var problemDetail: String? {
        code == Code.unavailable ? "the database cannot be reached now; retry later"
            : "the server could not complete the request; quote the request id when reporting it"
    }

    public var problemHeaders: HTTPFields {
        guard code == Code.unavailable else { return [:] }
        var headers = HTTPFields()
        headers[.retryAfter] = String(Self.retryAfterSeconds)
        return headers
    }
}

extension StorageError {
    /// The database's own errors that mean "not reachable now" rather than "this request is wrong": no pooled
    /// PostgreSQL connection within `HOLDFAST_DATABASE_WAIT_TIMEOUT_SECS`, a pool that is shutting down, a
    /// connection that could not be made or was lost, and a PostgreSQL server starting up or shutting down (its
    /// error response's SQLSTATE in `startingOrStoppingStates`). At request time they are `DATABASE_UNAVAILABLE`.
    static func unavailable(from error: any Error) -> StorageError? {
        let reason: String? = switch error {
        case is ConnectionPoolTimeoutError: "no database connection became free in time"
        case is ConnectionPoolError: "the database pool is shut down"
        case let error as PSQLError where [.connectionError, .serverClosedConnection, .clientClosedConnection].contains(error.code):
            "the database connection failed"
        case let error as PSQLError where error.code == .server && isStartingOrStopping(sqlState: error.serverInfo?[.sqlState]):
            "the database server is starting up or shutting down"
        case let error as PSQLError where error.code == .server && error.serverInfo?[.sqlState] == queryDeadlineState:
            "a database query did not finish within HOLDFAST_DATABASE_QUERY_TIMEOUT_SECS"
        default: nil
        }
        return reason.map { StorageError(code: Code.unavailable, message: $0) }
    }

    /// PostgreSQL's SQLSTATEs (Appendix A, class 57 "Operator Intervention") of a server that will answer again soon:
    /// `57P01` admin_shutdown and `57P02` crash_shutdown (a connection ended by a stop or a crash recovery),
    /// `57P03` cannot_connect_now (the server is starting up or shutting down). `57P04` (database dropped) is not among
    /// them: retrying does not help.
    static let startingOrStoppingStates: Set<String> = ["57P01", "57P02", "57P03"]

    /// `57014` query_canceled: the node's connections open with `statement_timeout` and
    /// `idle_in_transaction_session_timeout` at the query deadline (`HoldfastDatabase.open`), so PostgreSQL cancelling a
    /// statement is that deadline seen from the server's side — answered as the node's own deadline is.
    static let queryDeadlineState = "57014"

    static func isStartingOrStopping(sqlState: String?) -> Bool {
        sqlState.map(startingOrStoppingStates.contains) ?? false
    }
}
