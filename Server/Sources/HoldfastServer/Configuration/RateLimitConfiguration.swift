import Foundation

/// Per-source limits on the routes anyone may call (docs/operations.md "Configuration"): registration challenges,
/// registrations, and the operational routes. Authenticated calls are not counted here.
public struct RateLimitConfiguration: Sendable, Equatable {
    /// Tokens added per second to each source's bucket (`HOLDFAST_RATE_LIMIT_PER_SEC`); 0 turns the limit off.
    public var requestsPerSecond: Double
    /// The most a source can spend at once (`HOLDFAST_RATE_LIMIT_BURST`).
    public var burst: Int
    /// Peers whose `X-Forwarded-For` is believed (`HOLDFAST_TRUSTED_PROXIES`: addresses or CIDR blocks).
    var trustedProxies: [IPNetwork]
    /// Sources tracked at once per node (see `SourceRateLimiter`).
    public var maximumSources: Int

    public static let defaultRequestsPerSecond = 10.0
    public static let defaultBurst = 40
    public static let defaultMaximumSources = 100_000

    public init(requestsPerSecond: Double = defaultRequestsPerSecond, burst: Int = defaultBurst,
                maximumSources: Int = defaultMaximumSources) {
        self.requestsPerSecond = requestsPerSecond
        self.burst = burst
        self.trustedProxies = []
        self.maximumSources = maximumSources
    }

    /// No limit (tests that are not about limits, and benchmarks that say so).
    public static let off = RateLimitConfiguration(requestsPerSecond: 0)

    public var isEnabled: Bool { requestsPerSecond > 0 }

    /// Sets the trusted proxies from their text forms; throws on the first that is not an address or block.
    public mutating func setTrustedProxies(_ list: String, source: String = "HOLDFAST_TRUSTED_PROXIES") throws(ConfigurationError) {
        var networks: [IPNetwork] = []
        for item in list.split(separator: ",") {
            let text = item.trimmingCharacters(in: .whitespaces)
            guard !text.isEmpty else { continue }
            guard let network = IPNetwork(Substring(text)) else {
                throw ConfigurationError(variable: source,
                                         reason: "'\(text.prefix(60))' is not an IP address or CIDR block (10.0.0.0/8, 2001:db8::/32)")
            }
            networks.append(network)
        }
        trustedProxies = networks
    }

    /// Applies `HOLDFAST_RATE_LIMIT_PER_SEC`, `HOLDFAST_RATE_LIMIT_BURST` and `HOLDFAST_TRUSTED_PROXIES`.
    mutating func apply(environment value: (String) -> String?) throws(ConfigurationError) {
        if let text = value("HOLDFAST_RATE_LIMIT_PER_SEC") {
            guard let rate = Double(text), rate.isFinite, rate >= 0, rate <= 1_000_000 else {
                throw ConfigurationError(variable: "HOLDFAST_RATE_LIMIT_PER_SEC",
                                         reason: "must be a number from 0 (no limit) to 1000000")
            }
            requestsPerSecond = rate
        }
        if let text = value("HOLDFAST_RATE_LIMIT_BURST") {
            guard let burst = Int(text), (1...1_000_000).contains(burst) else {
                throw ConfigurationError(variable: "HOLDFAST_RATE_LIMIT_BURST", reason: "must be an integer from 1 to 1000000")
            }
            self.burst = burst
        }
        if let text = value("HOLDFAST_TRUSTED_PROXIES") { try setTrustedProxies(text) }
    }

    var description: [String] {
        let limit = isEnabled ? "\(requestsPerSecond.formatted())/s per source, burst \(burst)" : "off"
        let proxies = trustedProxies.isEmpty ? "none (X-Forwarded-For ignored)"
            : trustedProxies.map(\.description).joined(separator: ", ")
        return ["rate limit (unauthenticated routes): \(limit)", "trusted proxies: \(proxies)"]
    }
}

extension Double {
    /// `10` rather than `10.0`; `2.5` as it is.
    fileprivate func formatted() -> String {
        rounded() == self && abs(self) < 1e15 ? String(Int64(self)) : String(self)
    }
}
