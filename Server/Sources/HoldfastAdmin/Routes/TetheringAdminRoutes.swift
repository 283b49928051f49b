import HoldfastProtocol

/// The holder applications' and instances' admin routes (docs/server-api.md "API"), admin scope, below the prefixes
/// `HoldfastProtocol.TetheringRoutes` declares for the routes devices call.
public enum TetheringAdminRoutes {
    /// The route templates, exactly as in `openapi.json`.
    public enum Template {
        /// `POST` — `HolderApplication` (create); `GET ?limit=&cursor=` → `HolderApplicationPage`.
        public static let applications = TetheringRoutes.Template.applications
        /// `GET`, `PUT` (replace), `DELETE` (and every instance of it revoked).
        public static let application = TetheringRoutes.Template.application
        /// `DELETE` revokes the instance (`GET …/instances` lists them, beside the registration devices call).
        public static let instance = TetheringRoutes.Template.instances.appending("{instanceId}")
        /// `POST` approves a pending instance.
        public static let approve = instance.appending("approve")
        /// `POST` rejects a pending instance.
        public static let reject = instance.appending("reject")

        public static let all: [RouteTemplate] = [applications, application, instance, approve, reject]
    }

    /// `/v1/holder/applications/{applicationId}`.
    public static func application(_ applicationId: String) -> String {
        Template.application.path(["applicationId": applicationId])
    }

    /// `/v1/holder/applications/{applicationId}/instances/{instanceId}`.
    public static func instance(applicationId: String, instanceId: String) -> String {
        Template.instance.path(["applicationId": applicationId, "instanceId": instanceId])
    }
}
