/// The body of `GET /health`.
public struct HealthStatus: Codable, Sendable, Equatable {
    public struct Component: Codable, Sendable, Equatable {
        /// `up` or `down`.
        public var status: String
        /// `sqlite` / `postgresql`, `memory` / `redis`.
        public var backend: String
    }

    /// Google's Android attestation status list in force. Only counts and times: the source and its errors (a
    /// path, a URL that may carry credentials) are for the logs, not for an unauthenticated route.
    public struct RevocationList: Codable, Sendable, Equatable {
        /// `bundled`, `file` or `url`.
        public var source: String
        public var entries: Int
        /// When the list in force was loaded (absent: the bundled snapshot).
        public var loadedAt: String?
        /// True when the last refresh failed (the last good list stays in force).
        public var stale: Bool
    }

    /// `ok` when every component is up, else `unavailable` (and the response is 503).
    public var status: String
    public var version: String
    public var database: Component
    public var ephemeralStore: Component
    public var androidRevocationList: RevocationList
}
