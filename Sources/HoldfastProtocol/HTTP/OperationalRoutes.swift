/// The tenant's operational endpoints (docs/server-api.md "API"), all public: health, metrics, the OpenAPI document and the
/// tenant's signing keys.
public enum OperationalRoutes {
    /// The route templates, exactly as in `openapi.json`.
    public enum Template {
        /// `GET` → `HealthStatus` (`200`, or `503` when a component is down).
        public static let health = RouteTemplate("/health")
        /// `GET` → the Prometheus text exposition.
        public static let metrics = RouteTemplate("/metrics")
        /// `GET` → the OpenAPI document.
        public static let openAPI = RouteTemplate("/openapi.json")
        /// `GET` → the tenant's public signing keys (RFC 7517 §5 JWK Set).
        public static let jwks = RouteTemplate("/.well-known/jwks.json")

        public static let all: [RouteTemplate] = [health, metrics, openAPI, jwks]
    }
}
