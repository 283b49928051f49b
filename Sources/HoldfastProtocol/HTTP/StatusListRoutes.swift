/// The tenant's status lists (draft-ietf-oauth-status-list; docs/server-api.md "Credentials"), public: what a relying party or
/// a wallet fetches. The status list settings are admin (`HoldfastAdmin.CredentialAdminRoutes`).
public enum StatusListRoutes {
    /// The route templates, exactly as in `openapi.json`.
    public enum Template {
        /// `GET` → the tenant's lists and their token URIs.
        public static let lists = RouteTemplate("/v2/credentials/mobile/status-lists")
        /// `GET` → a signed status list token (`statuslist+jwt` or `application/statuslist+cwt` by `Accept`).
        public static let token = lists.appending("{id}/token")

        public static let all: [RouteTemplate] = [lists, token]
    }

    /// `/v2/credentials/mobile/status-lists/{id}/token`: the `uri` of a credential's status reference.
    public static func token(listID: String) -> String {
        Template.token.path(["id": listID])
    }
}
