import Foundation

/// The tethering endpoints a device calls (docs/server-api.md "API"): their templates, which the server routes from, and
/// the concrete paths the SDK calls (each id percent-encoded as one path segment). The holder applications' and
/// instances' admin routes are `HoldfastAdmin.TetheringAdminRoutes`, below the prefixes declared here.
public enum TetheringRoutes {
    /// The route templates, exactly as in `openapi.json`.
    public enum Template {
        /// The prefix of the holder applications (routed by `HoldfastAdmin.TetheringAdminRoutes`: create, list).
        public static let applications = RouteTemplate("/v1/holder/applications")
        /// The prefix of one application's routes (routed by `HoldfastAdmin.TetheringAdminRoutes`: get, put, delete).
        public static let application = applications.appending("{applicationId}")
        /// `POST` → `ChallengeResponse`.
        public static let challenges = application.appending("challenges")
        /// `POST` (register, `InstanceRegistrationRequest`), `GET ?limit=&cursor=` (admin list).
        public static let instances = application.appending("instances")
        /// The prefix of the instance's own (DPoP) calls.
        public static let holderInstance = RouteTemplate("/v1/holder/instances/{instanceId}")
        /// `POST` — renew (`LicenseRenewalRequest`).
        public static let license = holderInstance.appending("license")
        /// `POST` — `KeyRotationRequest`.
        public static let rotateKey = holderInstance.appending("keys/rotate")
        /// `POST` — `WalletAttestationRequest`.
        public static let walletAttestations = holderInstance.appending("wallet-attestations")

        /// Every template routed for devices (`applications`, `application` and `holderInstance` are prefixes here).
        public static let all: [RouteTemplate] = [challenges, instances, license, rotateKey, walletAttestations]
    }

    /// `/v1/holder/applications/{applicationId}/challenges`.
    public static func challenges(applicationId: String) -> String {
        Template.challenges.path(["applicationId": applicationId])
    }

    /// `/v1/holder/applications/{applicationId}/instances`.
    public static func instances(applicationId: String) -> String {
        Template.instances.path(["applicationId": applicationId])
    }

    /// `/v1/holder/instances/{instanceId}/license`.
    public static func license(instanceId: String) -> String {
        Template.license.path(["instanceId": instanceId])
    }

    /// `/v1/holder/instances/{instanceId}/keys/rotate`.
    public static func rotateKey(instanceId: String) -> String {
        Template.rotateKey.path(["instanceId": instanceId])
    }

    /// `/v1/holder/instances/{instanceId}/wallet-attestations`.
    public static func walletAttestations(instanceId: String) -> String {
        Template.walletAttestations.path(["instanceId": instanceId])
    }

    /// Query parameter names of the paginated lists.
    public enum Query {
        public static let limit = "limit"
        public static let cursor = "cursor"
    }
}
