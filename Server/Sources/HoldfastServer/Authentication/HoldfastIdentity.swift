import HoldfastAdmin

/// Who a request authenticated as: an admin API key, an app instance by its license token and DPoP proof, an SCA
/// wallet by its key, a wallet by its OpenID4VCI access token, or (on the verifier's result route only) the holder of
/// a same-device `response_code`.
public enum HoldfastIdentity: Sendable {
    case admin(AdminKey)
    case instance(AuthenticatedInstance)
    case responseCode(String)
    /// A device by its SCA wallet key (`.wallet` routes).
    case wallet(AuthenticatedWallet)
    /// A wallet by its DPoP-bound OpenID4VCI access token (`.accessToken` routes).
    case accessToken(AuthorizedIssuance)
}
