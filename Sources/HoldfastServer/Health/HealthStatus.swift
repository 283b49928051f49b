/// The body of `GET /health`.
public struct HealthStatus: Codable, Sendable, Equatable {
    public struct Component: Codable, Sendable, Equatable {
        /// `up` or `down`.
        public var status: String
        /// `sqlite` / `postgresql`, `memory` / `redis`.
        public var backend: String
    }

    /// `ok` when every component is up, else `unavailable` (and the response is 503).
    public var status: String
    public var version: String
    public var database: Component
    public var ephemeralStore: Component
}
