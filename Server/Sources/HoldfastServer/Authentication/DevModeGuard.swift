import HoldfastAdmin
import HoldfastProtocol
import HTTPTypes
import Hummingbird
import Logging
import Metrics

/// The dev / QA bypass (docs/server-api.md "API"): `X-Holdfast-Dev-Mode: true` waives platform attestation only when the
/// application has `developmentIntegrityAllowed: true` **and** a `channel` other than `production` (an absent
/// channel counts as production). The header against a production application is a security incident: it is
/// refused, logged as the distinct event `security.dev_mode_on_production` and counted in
/// `holdfast_security_incidents_total{kind="dev_mode_on_production"}`.
struct DevModeGuard: Sendable {
    let logger: Logger
    let metrics: HTTPMetrics

    static let incidentsMetric = "holdfast_security_incidents_total"
    static let incidentEvent = "security.dev_mode_on_production"

    /// Whether the bypass applies to this request; throws `DEV_MODE_NOT_ALLOWED` (403) when the header is sent
    /// for an application that does not allow it.
    func evaluate(_ request: Request, application: HolderApplication, requestID: String) throws -> Bool {
        guard let name = HTTPField.Name(HoldfastHeaders.devMode), let value = request.headers[name],
              value.trimmingCharacters(in: .whitespaces).lowercased() == HoldfastHeaders.devModeEnabled else { return false }
        let channel = application.channel ?? .production
        if channel == .production {
            logger.error("security incident: dev mode requested against a production application", metadata: [
                "event": .string(Self.incidentEvent), "application_id": .string(application.id ?? ""),
                "request_id": .string(requestID), "path": .string(request.uri.path),
            ])
            Counter(label: Self.incidentsMetric, dimensions: [("kind", "dev_mode_on_production")],
                    factory: metrics.factory).increment()
            throw AuthenticationError.devModeNotAllowed
        }
        guard application.developmentIntegrityAllowed == true else {
            logger.warning("dev mode refused: developmentIntegrityAllowed is off", metadata: [
                "application_id": .string(application.id ?? ""), "request_id": .string(requestID),
            ])
            throw AuthenticationError.devModeNotAllowed
        }
        return true
    }
}
