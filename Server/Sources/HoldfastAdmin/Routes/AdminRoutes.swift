import HoldfastProtocol

/// Every route template of the admin API that `HoldfastProtocol` does not declare, and `everyTemplate`: every route
/// the server has (a server test checks that each routed template is one of these, and each of these is routed).
public enum AdminRoutes {
    public static let all: [RouteTemplate] = AdminKeyRoutes.Template.all + CredentialAdminRoutes.Template.all
        + PresentationAdminRoutes.Template.all + SCAAdminRoutes.Template.all + TetheringAdminRoutes.Template.all

    /// `HoldfastRoutes.all` and `all`: the whole API.
    public static let everyTemplate: [RouteTemplate] = HoldfastRoutes.all + all
}
