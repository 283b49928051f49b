/// How long the server waits on a client, and how many connections one source may hold (docs/operations.md "Configuration"):
/// a client that opens connections and sends nothing, half a request head or half a body is cut off instead of
/// holding a connection for ever; a deploy's SIGTERM ends within `shutdownDeadline`.
public struct ConnectionConfiguration: Sendable, Equatable {
    /// From the first byte of a request (or the connection's opening) to the end of its head
    /// (`HOLDFAST_HEADER_TIMEOUT_SECS`); then `408` and the connection is closed.
    public var headerTimeout: Duration
    /// The longest pause between two pieces of a request body (`HOLDFAST_BODY_IDLE_TIMEOUT_SECS`); then `408`.
    public var bodyIdleTimeout: Duration
    /// How long a kept-alive connection may wait for its next request (`HOLDFAST_IDLE_TIMEOUT_SECS`); then it is
    /// closed without an answer, as RFC 9112 §9.6 lets either side do between requests.
    public var idleTimeout: Duration
    /// Connections one source may hold open at once (`HOLDFAST_MAX_CONNECTIONS_PER_SOURCE`); a peer in
    /// `HOLDFAST_TRUSTED_PROXIES` is not limited (all its clients share it).
    public var maximumConnectionsPerSource: Int
    /// After SIGTERM / SIGINT, how long requests in flight get to finish before their connections are closed
    /// (`HOLDFAST_SHUTDOWN_DEADLINE_SECS`).
    public var shutdownDeadline: Duration
    /// How long a request may wait for a PostgreSQL connection of the pool (`HOLDFAST_DATABASE_WAIT_TIMEOUT_SECS`);
    /// then it is answered `503 DATABASE_UNAVAILABLE` with `Retry-After`.
    public var databaseWaitTimeout: Duration = defaultDatabaseWaitTimeout
    /// How long one PostgreSQL query or transaction may take in all, the wait for a connection included
    /// (`HOLDFAST_DATABASE_QUERY_TIMEOUT_SECS`); then the request is answered `503 DATABASE_UNAVAILABLE` with
    /// `Retry-After` and the connection is closed, never reused (`PostgresDeadlineDatabase`).
    public var databaseQueryTimeout: Duration = HoldfastDatabase.defaultQueryTimeout

    public static let defaultDatabaseWaitTimeout = Duration.seconds(10)
    public static let defaultHeaderTimeout = Duration.seconds(5)
    public static let defaultBodyIdleTimeout = Duration.seconds(30)
    public static let defaultIdleTimeout = Duration.seconds(30)
    public static let defaultMaximumConnectionsPerSource = 100
    public static let defaultShutdownDeadline = Duration.seconds(10)

    public init(headerTimeout: Duration = defaultHeaderTimeout, bodyIdleTimeout: Duration = defaultBodyIdleTimeout,
                idleTimeout: Duration = defaultIdleTimeout,
                maximumConnectionsPerSource: Int = defaultMaximumConnectionsPerSource,
                shutdownDeadline: Duration = defaultShutdownDeadline) {
        self.headerTimeout = headerTimeout
        self.bodyIdleTimeout = bodyIdleTimeout
        self.idleTimeout = idleTimeout
        self.maximumConnectionsPerSource = maximumConnectionsPerSource
        self.shutdownDeadline = shutdownDeadline
    }

    mutating func apply(environment value: (String) -> String?) throws(ConfigurationError) {
        func seconds(_ variable: String, _ range: ClosedRange<Int>) throws(ConfigurationError) -> Duration? {
            guard let text = value(variable) else { return nil }
            guard let parsed = Int(text), range.contains(parsed) else {
                throw ConfigurationError(variable: variable,
                                         reason: "must be a whole number of seconds from \(range.lowerBound) to \(range.upperBound)")
            }
            return .seconds(parsed)
        }
        if let parsed = try seconds("HOLDFAST_HEADER_TIMEOUT_SECS", 1...600) { headerTimeout = parsed }
        if let parsed = try seconds("HOLDFAST_BODY_IDLE_TIMEOUT_SECS", 1...3600) { bodyIdleTimeout = parsed }
        if let parsed = try seconds("HOLDFAST_IDLE_TIMEOUT_SECS", 1...3600) { idleTimeout = parsed }
        if let parsed = try seconds("HOLDFAST_SHUTDOWN_DEADLINE_SECS", 0...3600) { shutdownDeadline = parsed }
        if let parsed = try seconds("HOLDFAST_DATABASE_WAIT_TIMEOUT_SECS", 1...300) { databaseWaitTimeout = parsed }
        if let parsed = try seconds("HOLDFAST_DATABASE_QUERY_TIMEOUT_SECS", 1...300) { databaseQueryTimeout = parsed }
        if let text = value("HOLDFAST_MAX_CONNECTIONS_PER_SOURCE") {
            guard let parsed = Int(text), (1...1_000_000).contains(parsed) else {
                throw ConfigurationError(variable: "HOLDFAST_MAX_CONNECTIONS_PER_SOURCE",
                                         reason: "must be an integer from 1 to 1000000")
            }
            maximumConnectionsPerSource = parsed
        }
    }

    var description: [String] {
        func text(_ duration: Duration) -> String {
            let (seconds, attoseconds) = duration.components
            return attoseconds == 0 ? "\(seconds)s" : "\(duration)"
        }
        return ["timeouts: header \(text(headerTimeout)), body idle \(text(bodyIdleTimeout)), idle \(text(idleTimeout)); "
                    + "shutdown deadline \(text(shutdownDeadline))",
                "connections per source: \(maximumConnectionsPerSource)"]
    }
}
