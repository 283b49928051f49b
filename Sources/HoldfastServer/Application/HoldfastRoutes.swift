/// Every route of the server, by capability. To add a capability's routes, write
/// `enum <Capability>Routes { static func routes(_ services: ServerServices) -> [Route] }` in its folder, list
/// it here, and document each operation in `openapi.json` (`OpenAPICoverageTests` fails until both agree).
public enum HoldfastRoutes {
    public static func all(_ services: ServerServices) -> [Route] {
        OperationalRoutes.routes(services)
            + TenantKeyRoutes.routes(services)
            + AdminKeyRoutes.routes(services)
            + HolderApplicationRoutes.routes(services)
            + InstanceRoutes.routes(services)
            + InstanceCallRoutes.routes(services)
    }
}
