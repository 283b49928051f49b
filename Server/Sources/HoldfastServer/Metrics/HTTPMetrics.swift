import Metrics
import Prometheus

/// Request counters and durations by method, route template and status, exported as Prometheus text on
/// `/metrics` (swift-metrics API, swift-prometheus registry).
///
/// Each application has its own registry and records through an explicit factory, so a process may build
/// many applications (tests) while `MetricsSystem.bootstrap` — callable once per process — stays with the
/// executable: `holdfast serve` bootstraps the global system with `factory` so library metrics land in the
/// same registry.
public struct HTTPMetrics: Sendable {
    public let registry: PrometheusCollectorRegistry
    public let factory: PrometheusMetricsFactory

    public static let requestsTotal = "holdfast_http_requests_total"
    public static let requestDuration = "holdfast_http_request_duration_seconds"

    public init(registry: PrometheusCollectorRegistry = PrometheusCollectorRegistry()) {
        self.registry = registry
        self.factory = PrometheusMetricsFactory(registry: registry)
    }

    func record(method: String, route: String, status: Int, duration: Duration) {
        let dimensions = [("method", method), ("route", route), ("status", String(status))]
        Counter(label: Self.requestsTotal, dimensions: dimensions, factory: factory).increment()
        Timer(label: Self.requestDuration, dimensions: dimensions, factory: factory).recordNanoseconds(
            duration.components.seconds * 1_000_000_000 + duration.components.attoseconds / 1_000_000_000)
    }

    /// The Prometheus text exposition format (version 0.0.4).
    public func exposition() -> String {
        registry.emitToString()
    }
}

extension HTTPMetrics {
    /// For the executable, once per process: a registry that the application uses and that
    /// `MetricsSystem` (the swift-metrics global, for library metrics) reports into as well.
    public static func bootstrapProcess() -> HTTPMetrics {
        let metrics = HTTPMetrics()
        MetricsSystem.bootstrap(metrics.factory)
        return metrics
    }
}
