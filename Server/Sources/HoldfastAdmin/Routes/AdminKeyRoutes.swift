import HoldfastProtocol

/// The admin API keys (docs/server-api.md "API"), admin scope.
public enum AdminKeyRoutes {
    /// The route templates, exactly as in `openapi.json`.
    public enum Template {
        /// `GET ?limit=&cursor=` → `AdminKeyPage`; `POST` — `AdminKeyCreateRequest` → `CreatedAdminKey`.
        public static let keys = RouteTemplate("/v1/admin/keys")
        /// `DELETE` revokes (there is no `GET`: a revoked key is never served by id).
        public static let key = keys.appending("{id}")

        public static let all: [RouteTemplate] = [keys, key]
    }
}
