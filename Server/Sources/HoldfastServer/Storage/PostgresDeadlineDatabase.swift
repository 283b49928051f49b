import Logging
import Plumbing
@preconcurrency import PostgresKit

/// The PostgreSQL pool as the server's requests use it (docs/operations.md "Configuration", `HOLDFAST_DATABASE_QUERY_TIMEOUT_SECS`):
/// every query, and every session (a transaction is one), has one deadline from the moment it asks for a pooled
/// connection to its last row.
///
/// Past the deadline — or when the task that asked is cancelled (a request still running at the shutdown deadline) —
/// the caller gets `DATABASE_UNAVAILABLE` (a timeout) or `CancellationError` at once, and the connection it held is
/// closed, never returned to the pool for another request: whatever the connection was waiting for (a lock, a server
/// that stopped answering) stays with it. The server side gives up by itself too: each connection opens with
/// `statement_timeout` and `idle_in_transaction_session_timeout` set to the same deadline, so a backend queued on a
/// lock does not outlive its client by more than that. A connection whose query failed for a reason of the connection
/// (not an error PostgreSQL answered) is closed as well.
///
/// PostgresNIO's queries do not stop on task cancellation, so the work runs in a task of its own and the caller waits
/// on a continuation that the first of the three outcomes (done, deadline, cancellation) resumes; the work ends as
/// soon as its connection is closed.
struct PostgresDeadlineDatabase: SQLDatabase {
    let poolBox: ConnectionPoolBox<PostgresConnectionSource>
    let timeout: Duration
    let logger: Logger
    let queryLogLevel: Logger.Level?

    var pool: EventLoopGroupConnectionPool<PostgresConnectionSource> { poolBox.pool }

    var eventLoop: any EventLoop { pool.eventLoopGroup.any() }

    var dialect: any SQLDialect { PostgresDialect() }

    func execute(sql query: any SQLExpression, _ onRow: @escaping @Sendable (any SQLRow) -> ()) -> EventLoopFuture<Void> {
        eventLoop.makeFutureWithTask { try await self.execute(sql: query, onRow) }
    }

    func execute(sql query: any SQLExpression, _ onRow: @escaping @Sendable (any SQLRow) -> ()) async throws {
        let level = queryLogLevel
        try await withConnection { connection in
            try await connection.sql(queryLogLevel: level).execute(sql: query, onRow)
        }
    }

    func withSession<R>(_ closure: @escaping @Sendable (any SQLDatabase) async throws -> R) async throws -> R {
        let level = queryLogLevel
        let box = try await withConnection { connection in
            UncheckedResult(value: try await closure(connection.sql(queryLogLevel: level)))
        }
        return box.value
    }

    /// Carries a session's result out of the task that ran it. `@unchecked Sendable`: the value is written once by
    /// that task and read once by the caller after the continuation resumed, which orders the two.
    private struct UncheckedResult<Value>: @unchecked Sendable {
        let value: Value
    }

    /// Runs `body` on a pooled connection within the deadline (see the type's comment).
    func withConnection<R: Sendable>(_ body: @escaping @Sendable (PostgresConnection) async throws -> R) async throws -> R {
        let race = DeadlineRace<R>()
        let box = poolBox
        let pool = box.pool
        let logger = self.logger
        let timeout = self.timeout
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<R, any Error>) in
                race.begin(continuation)
                let timer = pool.eventLoopGroup.any().scheduleTask(in: .nanoseconds(Self.nanoseconds(timeout))) {
                    race.finish(.failure(StorageError(
                        code: StorageError.Code.unavailable,
                        message: "a database query did not finish within \(timeout) (HOLDFAST_DATABASE_QUERY_TIMEOUT_SECS)")))
                }
                Task {
                    let pool = box.pool
                    defer { timer.cancel() }
                    let connection: PostgresConnection
                    do {
                        connection = try await pool.requestConnection(logger: logger).get()
                    } catch {
                        race.finish(.failure(error))
                        return
                    }
                    // Past the deadline already (or cancelled): the connection was not used; it goes back as it is.
                    guard race.hold(connection) else {
                        pool.releaseConnection(connection, logger: logger)
                        return
                    }
                    let outcome: Result<R, any Error>
                    do {
                        outcome = .success(try await body(connection))
                    } catch {
                        if Self.isConnectionFailure(error) { try? await connection.close() }
                        outcome = .failure(error)
                    }
                    race.finish(outcome)
                    pool.releaseConnection(connection, logger: logger)
                }
            }
        } onCancel: {
            race.finish(.failure(CancellationError()))
        }
    }

    /// An error of the connection rather than one PostgreSQL answered: the connection is not trusted again.
    static func isConnectionFailure(_ error: any Error) -> Bool {
        guard let error = error as? PSQLError else { return false }
        return error.code != .server && error.code != .queryCancelled
    }

    static func nanoseconds(_ duration: Duration) -> Int64 {
        let (seconds, attoseconds) = duration.components
        return seconds * 1_000_000_000 + attoseconds / 1_000_000_000
    }
}

/// The first of a query's outcomes wins: its result, the deadline, or the caller's cancellation. When the deadline
/// or the cancellation wins while the work holds a connection, that connection is closed.
final class DeadlineRace<R: Sendable>: Sendable {
    private struct State {
        var continuation: CheckedContinuation<R, any Error>?
        var connection: PostgresConnection?
        var finished = false
    }

    private let state = Locked(State())

    func begin(_ continuation: CheckedContinuation<R, any Error>) {
        let early = state.withLock { state -> Bool in
            if state.finished { return true }
            state.continuation = continuation
            return false
        }
        // Cancelled before the continuation existed.
        if early { continuation.resume(throwing: CancellationError()) }
    }

    /// Records the connection the work holds; false when the race is over already.
    func hold(_ connection: PostgresConnection) -> Bool {
        state.withLock { state in
            guard !state.finished else { return false }
            state.connection = connection
            return true
        }
    }

    func finish(_ outcome: Result<R, any Error>) {
        let (continuation, abandoned): (CheckedContinuation<R, any Error>?, PostgresConnection?) = state.withLock { state in
            guard !state.finished else { return (nil, nil) }
            state.finished = true
            defer { state.continuation = nil }
            // The work's own outcome leaves the connection to the work; a deadline or a cancellation takes it away.
            let abandoned: PostgresConnection? = if case .failure(let error) = outcome,
                                                    error is CancellationError || (error as? StorageError)?.code == StorageError.Code.unavailable {
                state.connection
            } else {
                nil
            }
            return (state.continuation, abandoned)
        }
        if let abandoned {
            let closing: EventLoopFuture<Void> = abandoned.close()
            closing.whenComplete { _ in }
        }
        continuation?.resume(with: outcome)
    }
}
