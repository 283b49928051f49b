/// The issuer's endpoints a wallet calls (OpenID4VCI 1.0, pre-authorized code flow; docs/server-api.md "Credentials"): the
/// metadata documents and the token, nonce and credential endpoints. The admin routes of issuance are
/// `HoldfastAdmin.CredentialAdminRoutes`.
public enum IssuanceRoutes {
    /// The route templates, exactly as in `openapi.json`.
    public enum Template {
        /// `GET` — OpenID4VCI 1.0 §12.2.2: `/.well-known/openid-credential-issuer`, inserted between the host and the
        /// issuer identifier's path when it has one.
        public static let issuerMetadata = RouteTemplate("/.well-known/openid-credential-issuer")
        /// `GET` — RFC 8414 §3: `/.well-known/oauth-authorization-server`, inserted the same way.
        public static let authorizationServerMetadata = RouteTemplate("/.well-known/oauth-authorization-server")
        /// `POST` — the token endpoint (RFC 6749 §3.2, OpenID4VCI 1.0 §6).
        public static let token = RouteTemplate("/v1/oauth/token")
        /// `POST` — OpenID4VCI 1.0 §7.
        public static let nonce = RouteTemplate("/v1/openid4vci/nonce")
        /// `POST` — OpenID4VCI 1.0 §8.
        public static let credential = RouteTemplate("/v1/openid4vci/credential")
        /// `POST` — OpenID4VCI 1.0 §11.
        public static let notification = RouteTemplate("/v1/openid4vci/notification")

        public static let all: [RouteTemplate] = [issuerMetadata, authorizationServerMetadata, token, nonce, credential, notification]
    }
}
