import Ephemeral
import Foundation
import Logging

/// Everything the tenant server needs to start, in one place (STYLE habit 14, DESIGN.md §4).
///
/// Read from the environment by `init(environment:)`; the `holdfast` command applies its flags on top
/// (flags win). `description` is what the server prints at start-up: it never contains the master key
/// or a database password.
public struct HoldfastConfiguration: Sendable, CustomStringConvertible {
    /// Where the tenant's persistent state lives.
    public enum Database: Sendable, Equatable {
        /// An SQLite file (the embedded default: `holdfast.sqlite` in the data folder).
        case sqlite(path: String)
        /// A PostgreSQL server, from a `postgres://` URL.
        case postgres(url: String)
    }

    /// Where the short-lived single-use state lives (challenges, DPoP `jti`, nonces).
    public enum EphemeralBackend: Sendable, Equatable {
        case memory
        case redis(url: String)
    }

    /// Where the master key (which encrypts the tenant keys in the database) comes from.
    public enum MasterKeySource: Sendable, Equatable {
        /// `HOLDFAST_MASTER_KEY`: the 32 bytes themselves.
        case provided([UInt8])
        /// A key file, created with mode 0600 on first start.
        case file(path: String)
    }

    public enum LogFormat: String, Sendable, CaseIterable {
        case json
        case text
    }

    public var host: String
    /// 0 asks the system for a free port (tests, `holdfast demo`).
    public var port: Int
    public var dataDirectory: String
    public var database: Database
    public var ephemeral: EphemeralBackend
    /// With Redis, how far ahead of Redis's clock the clocks that date single-use items (the nodes', the devices'
    /// proofs) may run: an item issued less than this after the store's epoch is refused as one issued before it
    /// (`HOLDFAST_REDIS_CLOCK_SKEW_SECS`, docs/operations.md "A store that lost its memory").
    public var redisClockSkew: Duration
    public var masterKey: MasterKeySource
    /// The tenant's external base URL (also the issuer of its tokens); nil means `http://host:port`,
    /// with the bound port once the server listens.
    public var publicURL: String?
    public var logLevel: Logger.Level
    public var logFormat: LogFormat
    public var maxBodyBytes: Int
    /// Tethering and device registration (docs/server-api.md "API").
    public var tethering: TetheringConfiguration
    /// Per-source limits on the unauthenticated routes.
    public var rateLimit: RateLimitConfiguration
    /// The in-memory ephemeral store's room, by purpose.
    public var ephemeralCapacity: EphemeralCapacity
    /// Timeouts, connections per source and the shutdown deadline.
    public var connections: ConnectionConfiguration
    /// The mDoc issuer's names (its certificates).
    public var issuance: IssuanceConfiguration
    /// The server's own HTTP requests (status lists of other issuers, Google's attestation status list).
    public var outbound: OutboundConfiguration

    public static let defaultHost = "127.0.0.1"
    public static let defaultPort = 8080
    public static let defaultDataDirectory = "./holdfast-data"
    public static let defaultMaxBodyBytes = 1 << 20
    /// Upper bound for `HOLDFAST_MAX_BODY_BYTES` (64 MiB): the server keeps a whole body in memory.
    public static let maximumMaxBodyBytes = 64 << 20
    /// The proofs' allowed future skew (`TetheringConfiguration.dpopMaximumFutureSkew`, the SCA proofs' 60 s).
    public static let defaultRedisClockSkewSeconds = 60
    public static let redisClockSkewSecondsRange = 0...600

    /// Defaults everywhere, data in `dataDirectory`.
    public init(dataDirectory: String = HoldfastConfiguration.defaultDataDirectory) {
        self.host = Self.defaultHost
        self.port = Self.defaultPort
        self.dataDirectory = dataDirectory
        self.database = .sqlite(path: Self.sqlitePath(in: dataDirectory))
        self.ephemeral = .memory
        self.redisClockSkew = .seconds(Self.defaultRedisClockSkewSeconds)
        self.masterKey = .file(path: Self.masterKeyPath(in: dataDirectory))
        self.publicURL = nil
        self.logLevel = .info
        self.logFormat = .json
        self.maxBodyBytes = Self.defaultMaxBodyBytes
        self.tethering = TetheringConfiguration()
        self.rateLimit = RateLimitConfiguration()
        self.ephemeralCapacity = EphemeralCapacity()
        self.connections = ConnectionConfiguration()
        self.issuance = IssuanceConfiguration()
        self.outbound = OutboundConfiguration()
    }

    /// Reads the `HOLDFAST_*` variables; invalid values throw `ConfigurationError` naming the variable.
    /// `dataDirectory` (a `--data` flag) wins over `HOLDFAST_DATA`.
    public init(environment: [String: String], dataDirectory: String? = nil) throws(ConfigurationError) {
        func value(_ name: String) -> String? {
            guard let raw = environment[name]?.trimmingCharacters(in: .whitespacesAndNewlines), !raw.isEmpty else {
                return nil
            }
            return raw
        }
        self.init(dataDirectory: dataDirectory ?? value("HOLDFAST_DATA") ?? Self.defaultDataDirectory)
        if let host = value("HOLDFAST_HOST") { try setHost(host, source: "HOLDFAST_HOST") }
        if let port = value("HOLDFAST_PORT") { try setPort(port, source: "HOLDFAST_PORT") }
        if let url = value("HOLDFAST_DATABASE_URL") { database = try Self.parseDatabaseURL(url) }
        if let url = value("HOLDFAST_REDIS_URL") {
            do {
                _ = try RedisConfiguration(url: url)
            } catch {
                throw ConfigurationError(variable: "HOLDFAST_REDIS_URL", reason: error.message)
            }
            ephemeral = .redis(url: url)
        }
        if let text = value("HOLDFAST_REDIS_CLOCK_SKEW_SECS") {
            guard let seconds = Int(text), Self.redisClockSkewSecondsRange.contains(seconds) else {
                throw ConfigurationError(variable: "HOLDFAST_REDIS_CLOCK_SKEW_SECS",
                                         reason: "must be an integer from \(Self.redisClockSkewSecondsRange.lowerBound) to \(Self.redisClockSkewSecondsRange.upperBound)")
            }
            redisClockSkew = .seconds(seconds)
        }
        if let key = value("HOLDFAST_MASTER_KEY") { masterKey = .provided(try Self.parseMasterKey(key)) }
        if let url = value("HOLDFAST_PUBLIC_URL") { try setPublicURL(url, source: "HOLDFAST_PUBLIC_URL") }
        if let level = value("HOLDFAST_LOG_LEVEL") {
            guard let parsed = Logger.Level(rawValue: level.lowercased()) else {
                throw ConfigurationError(variable: "HOLDFAST_LOG_LEVEL",
                                         reason: "must be one of trace, debug, info, notice, warning, error, critical")
            }
            logLevel = parsed
        }
        if let format = value("HOLDFAST_LOG_FORMAT") {
            guard let parsed = LogFormat(rawValue: format.lowercased()) else {
                throw ConfigurationError(variable: "HOLDFAST_LOG_FORMAT", reason: "must be json or text")
            }
            logFormat = parsed
        }
        if let bytes = value("HOLDFAST_MAX_BODY_BYTES") {
            guard let parsed = Int(bytes), parsed >= 1024, parsed <= Self.maximumMaxBodyBytes else {
                throw ConfigurationError(variable: "HOLDFAST_MAX_BODY_BYTES",
                                         reason: "must be an integer from 1024 to \(Self.maximumMaxBodyBytes)")
            }
            maxBodyBytes = parsed
        }
        try tethering.apply(environment: value)
        try rateLimit.apply(environment: value)
        try ephemeralCapacity.apply(environment: value)
        try connections.apply(environment: value)
        try issuance.apply(environment: value)
        try outbound.apply(environment: value)
    }

    /// The process environment plus an optional `--data` flag.
    public static func fromEnvironment(dataDirectory: String? = nil) throws(ConfigurationError) -> HoldfastConfiguration {
        try HoldfastConfiguration(environment: ProcessInfo.processInfo.environment, dataDirectory: dataDirectory)
    }

    public mutating func setHost(_ host: String, source: String = "--host") throws(ConfigurationError) {
        let allowed = CharacterSet.alphanumerics.union(CharacterSet(charactersIn: ".-:"))
        guard !host.isEmpty, host.count <= 253, host.unicodeScalars.allSatisfy(allowed.contains) else {
            throw ConfigurationError(variable: source, reason: "must be a host name or an IP address")
        }
        self.host = host
    }

    public mutating func setPort(_ port: String, source: String = "--port") throws(ConfigurationError) {
        guard let parsed = Int(port), (0...65535).contains(parsed) else {
            throw ConfigurationError(variable: source, reason: "must be an integer from 0 to 65535")
        }
        self.port = parsed
    }

    public mutating func setPublicURL(_ url: String, source: String = "HOLDFAST_PUBLIC_URL") throws(ConfigurationError) {
        guard let components = URLComponents(string: url), let scheme = components.scheme,
              scheme == "http" || scheme == "https", let host = components.host, !host.isEmpty,
              components.query == nil, components.fragment == nil else {
            throw ConfigurationError(variable: source,
                                     reason: "must be an absolute http(s) URL without query or fragment")
        }
        publicURL = url.hasSuffix("/") ? String(url.dropLast()) : url
    }

    /// The data folder changes the default SQLite and key-file locations, not explicit ones.
    public mutating func setDataDirectory(_ directory: String) {
        if database == .sqlite(path: Self.sqlitePath(in: dataDirectory)) {
            database = .sqlite(path: Self.sqlitePath(in: directory))
        }
        if masterKey == .file(path: Self.masterKeyPath(in: dataDirectory)) {
            masterKey = .file(path: Self.masterKeyPath(in: directory))
        }
        dataDirectory = directory
    }

    static func sqlitePath(in directory: String) -> String {
        URL(fileURLWithPath: directory).appendingPathComponent("holdfast.sqlite").path
    }

    static func masterKeyPath(in directory: String) -> String {
        URL(fileURLWithPath: directory).appendingPathComponent("master.key").path
    }

    static func parseDatabaseURL(_ url: String) throws(ConfigurationError) -> Database {
        guard let components = URLComponents(string: url),
              components.scheme == "postgres" || components.scheme == "postgresql",
              let host = components.host, !host.isEmpty, components.user != nil else {
            throw ConfigurationError(variable: "HOLDFAST_DATABASE_URL",
                                     reason: "must be postgres://user[:password]@host[:port]/database")
        }
        return .postgres(url: url)
    }

    static func parseMasterKey(_ text: String) throws(ConfigurationError) -> [UInt8] {
        guard let data = Data(base64Encoded: text), data.count == 32 else {
            throw ConfigurationError(variable: "HOLDFAST_MASTER_KEY", reason: "must be the base64 of exactly 32 bytes")
        }
        return Array(data)
    }

    /// `http://host:port` unless `publicURL` is set; `port` is the bound one when known.
    public func effectivePublicURL(boundPort: Int? = nil) -> String {
        if let publicURL { return publicURL }
        let hostPart = host.contains(":") ? "[\(host)]" : host
        return "http://\(hostPart):\(boundPort ?? port)"
    }

    /// Safe to print: no master key, no database password.
    public var description: String {
        var lines = [
            "listen: \(host):\(port)",
            "data: \(dataDirectory)",
            "database: \(Self.describe(database))",
            "ephemeral store: \(Self.describe(ephemeral))",
            "master key: \(describeMasterKey)",
            "public url: \(effectivePublicURL())\(publicURL == nil ? " (from host and port; set HOLDFAST_PUBLIC_URL behind a proxy)" : "")",
            "log: \(logFormat.rawValue), \(logLevel.rawValue)",
            "max body bytes: \(maxBodyBytes)",
        ] + tethering.description + rateLimit.description + connections.description
            + outbound.description
        lines = lines.map { "  " + $0 }
        return (["holdfast configuration:"] + lines).joined(separator: "\n")
    }

    private var describeMasterKey: String {
        switch masterKey {
        case .provided: "from HOLDFAST_MASTER_KEY"
        case .file(let path): "key file \(path)"
        }
    }

    /// A database location without its password.
    public static func describe(_ database: Database) -> String {
        switch database {
        case .sqlite(let path): "sqlite \(path)"
        case .postgres(let url): "postgresql \(redactingPassword(url))"
        }
    }

    public static func describe(_ backend: EphemeralBackend) -> String {
        switch backend {
        case .memory: "memory"
        case .redis(let url): "redis \(redactingPassword(url))"
        }
    }

    static func redactingPassword(_ url: String) -> String {
        guard var components = URLComponents(string: url) else { return "(unparseable URL)" }
        if components.password != nil { components.password = "***" }
        components.query = nil
        return components.string ?? "(unparseable URL)"
    }
}
