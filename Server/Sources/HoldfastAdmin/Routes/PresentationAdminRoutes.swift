import HoldfastProtocol

/// The verifier's admin routes (docs/server-api.md "Verifier"): the CAs of its request-object signers and the IACAs it trusts
/// beside the tenant's own. Sessions are `HoldfastProtocol.PresentationRoutes` (a verifier key may call them).
public enum PresentationAdminRoutes {
    /// The route templates, exactly as in `openapi.json`.
    public enum Template {
        /// `GET` → `VerifierCAList`.
        public static let verifierCAs = RouteTemplate("/v1/presentations/verifier-cas")
        /// `POST` — `PresentationTrustedIssuer`; `GET` → `PresentationTrustedIssuerList`.
        public static let trustedIssuers = RouteTemplate("/v1/presentations/trusted-issuers")
        /// `DELETE`.
        public static let trustedIssuer = trustedIssuers.appending("{id}")

        public static let all: [RouteTemplate] = [verifierCAs, trustedIssuers, trustedIssuer]
    }
}
