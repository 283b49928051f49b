import HoldfastAdmin

/// Who a request authenticated as: an admin API key, an app instance by its license token and DPoP proof, or (on the
/// verifier's result route only) the holder of a same-device `response_code`.
public enum HoldfastIdentity: Sendable {
    case admin(AdminKey)
    case instance(AuthenticatedInstance)
    case responseCode(String)
    /// A device by its SCA wallet key (`.wallet` routes).
    case wallet(AuthenticatedWallet)
}
