/// The verifier's endpoints (OpenID4VP 1.0; docs/server-api.md "Verifier"): sessions and their results for a verifier's web app
/// (an admin or verifier key), the request object and response endpoint the wallet calls, and the `/verifier` page.
/// The verifier's admin routes (its CAs, trusted issuers) are `HoldfastAdmin.PresentationAdminRoutes`.
public enum PresentationRoutes {
    /// The route templates, exactly as in `openapi.json`.
    public enum Template {
        /// `POST` (verifier key) → a new session.
        public static let sessions = RouteTemplate("/v2/presentations/sessions")
        public static let session = sessions.appending("{sessionId}")
        /// `GET` (public) → the signed request object (OpenID4VP 1.0 §5.10, `request_uri`).
        public static let request = session.appending("request")
        /// `POST` (public) → the wallet's `direct_post.jwt` response (OpenID4VP 1.0 §8.2).
        public static let response = session.appending("response")
        /// `POST` (public) → the `DigitalCredential` `{protocol, data}` a page got from `navigator.credentials.get`
        /// (W3C Digital Credentials; OpenID4VP 1.0 Appendix A.4; ISO/IEC TS 18013-7 Annex C).
        public static let dcAPIResponse = session.appending("dc-api-response")
        /// `GET` (verifier key, or the same-device `response_code`) → the session's result.
        public static let result = session.appending("result")
        /// `GET` (verifier key) → the cross-device QR code as SVG.
        public static let qr = session.appending("qr")
        /// `GET` → the verifier page (HTML), its script and its styles.
        public static let verifierPage = RouteTemplate("/verifier")
        public static let verifierScript = verifierPage.appending("verifier.js")
        public static let verifierStyles = verifierPage.appending("verifier.css")

        /// Every routed template above (`session` is a prefix only).
        public static let all: [RouteTemplate] = [sessions, request, response, dcAPIResponse, result, qr, verifierPage, verifierScript, verifierStyles]
    }

    /// Query parameter names.
    public enum Query {
        /// The same-device `response_code` (OpenID4VP 1.0 §8.2) that reads a session's result.
        public static let responseCode = "response_code"
    }

    /// `/v2/presentations/sessions/{sessionId}/request`.
    public static func request(sessionId: String) -> String {
        Template.request.path(["sessionId": sessionId])
    }

    /// `/v2/presentations/sessions/{sessionId}/response`.
    public static func response(sessionId: String) -> String {
        Template.response.path(["sessionId": sessionId])
    }

    /// `/v2/presentations/sessions/{sessionId}/dc-api-response`.
    public static func dcAPIResponse(sessionId: String) -> String {
        Template.dcAPIResponse.path(["sessionId": sessionId])
    }

    /// `/v2/presentations/sessions/{sessionId}/result`.
    public static func result(sessionId: String) -> String {
        Template.result.path(["sessionId": sessionId])
    }

    /// `/v2/presentations/sessions/{sessionId}/qr`.
    public static func qr(sessionId: String) -> String {
        Template.qr.path(["sessionId": sessionId])
    }
}
