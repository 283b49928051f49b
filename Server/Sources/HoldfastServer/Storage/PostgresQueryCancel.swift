import Logging
@preconcurrency import PostgresKit

/// Cancels a node's queries still running on PostgreSQL (docs/operations.md "Configuration", `HOLDFAST_SHUTDOWN_DEADLINE_SECS`).
///
/// A backend waiting on a lock does not notice that its client went away, so a node that exits with a query queued
/// would leave it queued. At the shutdown deadline the node asks PostgreSQL, from a connection of its own, to cancel
/// every active query of its backends (`pg_cancel_backend`, PostgreSQL §9.28.2 "Server Signaling Functions"; a role
/// may cancel its own backends), found by the application name each of its connections opened with.
enum PostgresQueryCancel {
    /// How long the cancel may take in all — within the second `holdfast serve` allows past the deadline; the node
    /// exits after it whatever happened.
    static let timeout = Duration.milliseconds(600)

    static func cancel(applicationName: String, configuration: PostgresConnection.Configuration, logger: Logger) async {
        var configuration = configuration
        configuration.options.additionalStartupParameters.removeAll { $0.0 == "application_name" }
        configuration.options.additionalStartupParameters.append(("application_name", "holdfast-cancel"))
        configuration.options.connectTimeout = .milliseconds(500)
        let cancelConfiguration = configuration
        do {
            let cancelled = try await withThrowingTaskGroup(of: Int?.self) { group in
                group.addTask {
                    let connection = try await PostgresConnection.connect(configuration: cancelConfiguration, id: 0, logger: logger)
                    do {
                        let rows = try await connection.sql(queryLogLevel: .trace).raw("""
                            SELECT pg_cancel_backend(pid) AS cancelled FROM pg_stat_activity
                            WHERE application_name = \(bind: applicationName) AND state = 'active' AND pid <> pg_backend_pid()
                            """).all()
                        try? await connection.close()
                        return rows.count
                    } catch {
                        try? await connection.close()
                        throw error
                    }
                }
                group.addTask {
                    try await Task.sleep(for: timeout)
                    return nil
                }
                defer { group.cancelAll() }
                return try await group.next() ?? nil
            }
            if let cancelled {
                if cancelled > 0 {
                    logger.notice("cancelled the database queries still running at the shutdown deadline",
                                  metadata: ["queries": .stringConvertible(cancelled)])
                }
            } else {
                logger.warning("the database did not answer the shutdown's cancel request in time")
            }
        } catch {
            logger.warning("the database queries still running could not be cancelled",
                           metadata: ["error": .string(String(describing: error))])
        }
    }
}
