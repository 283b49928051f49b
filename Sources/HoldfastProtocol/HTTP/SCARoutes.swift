/// The SCA wallet's endpoints a device or a bank's back end calls (docs/server-api.md "SCA wallet (back end)"): activation, the signing
/// policies, the eligibility check, the wallet's own DPoP calls (PIN attempts, credentials, the event feed), and proof
/// verification (a key of scope `sca`). The admin routes (the wallets, the eligibility rules) are
/// `HoldfastAdmin.SCAAdminRoutes`, below the prefixes declared here.
public enum SCARoutes {
    /// The route templates, exactly as in `openapi.json`.
    public enum Template {
        /// The prefix of the wallets (routed by `HoldfastAdmin.SCAAdminRoutes`: create, list).
        public static let wallets = RouteTemplate("/v1/sca/wallets")
        /// The prefix of the wallet's own calls (routed by `HoldfastAdmin.SCAAdminRoutes`: get, delete).
        public static let wallet = wallets.appending("{walletId}")
        /// `POST` (public) — `SCAActivationRequest` → `SCAActivationResponse`.
        public static let activations = RouteTemplate("/v1/sca/activations")
        /// `GET` (public) → `[SCAPolicy]`; `PUT` (admin) replaces them.
        public static let policies = RouteTemplate("/v1/sca/policies")
        /// `POST` (a key of scope `sca` or `admin`) — a proof the bank received, verified.
        public static let verifyProof = RouteTemplate("/v1/sca/proofs/verify")
        /// The prefix of the check (routed by `HoldfastAdmin.SCAAdminRoutes`: get, put the eligibility rules).
        public static let eligibility = RouteTemplate("/v1/sca/eligibility")
        /// `POST` (public) — `SCAEligibilityCheckRequest` → `SCAEligibilityCheckResponse`.
        public static let eligibilityChecks = eligibility.appending("checks")
        /// `POST` (the wallet's DPoP proof) — `SCAPinAttemptRequest` → `SCAPinAttemptResult`.
        public static let pinAttempts = wallet.appending("pin-attempts")
        /// `PUT` (the wallet's DPoP proof) — `SCACredentialsEnrolment` → `SCAPinAttemptResult`.
        public static let credentials = wallet.appending("credentials")
        /// `GET` (the wallet's DPoP proof) — the wallet's events as server-sent events (`?wait=`, `Last-Event-ID`).
        public static let events = wallet.appending("events")

        /// Every template routed for devices, the bank's back end and the public (`wallets`, `wallet` and
        /// `eligibility` are prefixes here).
        public static let all: [RouteTemplate] = [activations, policies, verifyProof, eligibilityChecks, pinAttempts, credentials, events]
    }

    /// Query parameter names.
    public enum Query {
        /// The feed's wait in seconds (0 to 60).
        public static let wait = "wait"
        /// The feed's first event id when there is no `Last-Event-ID`.
        public static let after = "after"
        /// The wallets of one user (`GET /v1/sca/wallets?userId=`).
        public static let userId = "userId"
    }

    /// `/v1/sca/wallets/{walletId}/pin-attempts`.
    public static func pinAttempts(walletId: String) -> String {
        Template.pinAttempts.path(["walletId": walletId])
    }

    /// `/v1/sca/wallets/{walletId}/events`.
    public static func events(walletId: String) -> String {
        Template.events.path(["walletId": walletId])
    }
}
