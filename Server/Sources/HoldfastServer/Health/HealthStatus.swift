import Plumbing

/// The body of `GET /health`. Its value sets are `OpenValueSet`s: the tenant writes only the `Known` cases, and a
/// monitor built with this type still decodes a value a newer tenant adds.
public struct HealthStatus: Codable, Sendable, Equatable {
    /// `ok` when every component is up, else `unavailable` (the response is then 503).
    public struct Overall: OpenValueSet {
        public enum Known: String, CaseIterable, Sendable {
            case ok, unavailable
        }

        public let rawValue: String

        public init(rawValue: String) { self.rawValue = rawValue }
    }

    /// A component's state: `full` only for the ephemeral store (`fullParts` refuse new entries).
    public struct ComponentStatus: OpenValueSet {
        public enum Known: String, CaseIterable, Sendable {
            case up, down, full
        }

        public let rawValue: String

        public init(rawValue: String) { self.rawValue = rawValue }
    }

    public struct Component: Codable, Sendable, Equatable {
        /// `up` or `down`.
        public var status: ComponentStatus
        /// `sqlite` / `postgresql`, `memory` / `redis`.
        public var backend: String
    }

    /// The ephemeral store: `up`, `down` (unreachable) or `full` (`fullParts` refuse new entries: `challenges` —
    /// registrations answer 503 —, `replay` — instance calls answer 503).
    public struct EphemeralStore: Codable, Sendable, Equatable {
        public var status: ComponentStatus
        /// `memory` / `redis`.
        public var backend: String
        public var fullParts: [String]
    }

    /// Google's Android attestation status list in force. Only counts and times: the source and its errors (a
    /// path, a URL that may carry credentials) are for the logs, not for an unauthenticated route.
    public struct RevocationList: Codable, Sendable, Equatable {
        /// Where the list in force came from.
        public struct Source: OpenValueSet {
            public enum Known: String, CaseIterable, Sendable {
                case bundled, file, url
            }

            public let rawValue: String

            public init(rawValue: String) { self.rawValue = rawValue }
        }

        public var source: Source
        public var entries: Int
        /// When the list in force was loaded (absent: the bundled snapshot).
        public var loadedAt: String?
        /// True when the last refresh failed (the last good list stays in force).
        public var stale: Bool
    }

    /// `ok` when every component is up, else `unavailable` (and the response is 503): a database or store that is
    /// down, or a store that is full.
    public var status: Overall
    public var version: String
    public var database: Component
    public var ephemeralStore: EphemeralStore
    public var androidRevocationList: RevocationList
}
