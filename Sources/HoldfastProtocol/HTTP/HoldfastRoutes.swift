/// Every route template of the public contract (`HoldfastProtocol`): tethering, issuance, status lists,
/// presentations, SCA and the operational endpoints. With `HoldfastAdmin.AdminRoutes.all` these are every route the
/// server has (a server test checks both ways).
public enum HoldfastRoutes {
    public static let all: [RouteTemplate] = TetheringRoutes.Template.all + IssuanceRoutes.Template.all
        + StatusListRoutes.Template.all + PresentationRoutes.Template.all + SCARoutes.Template.all
        + OperationalRoutes.Template.all
}
