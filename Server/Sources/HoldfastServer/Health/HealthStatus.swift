/// The body of `GET /health`.
public struct HealthStatus: Codable, Sendable, Equatable {
    public struct Component: Codable, Sendable, Equatable {
        /// `up` or `down`.
        public var status: String
        /// `sqlite` / `postgresql`, `memory` / `redis`.
        public var backend: String
    }

    /// The ephemeral store: `up`, `down` (unreachable) or `full` (`fullParts` refuse new entries: `challenges` —
    /// registrations answer 503 —, `replay` — instance calls answer 503).
    public struct EphemeralStore: Codable, Sendable, Equatable {
        public var status: String
        /// `memory` / `redis`.
        public var backend: String
        public var fullParts: [String]
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

    /// `ok` when every component is up, else `unavailable` (and the response is 503): a database or store that is
    /// down, or a store that is full.
    public var status: String
    public var version: String
    public var database: Component
    public var ephemeralStore: EphemeralStore
    public var androidRevocationList: RevocationList
}
