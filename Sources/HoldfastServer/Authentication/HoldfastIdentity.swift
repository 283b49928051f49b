/// Who a request authenticated as: an admin API key, or an app instance by its license token and DPoP proof.
public enum HoldfastIdentity: Sendable {
    case admin(AdminKey)
    case instance(AuthenticatedInstance)
}
