import HoldfastProtocol

/// The wallet a device call authenticated as (docs/server-api.md "SCA wallet (back end)").
public struct AuthenticatedWallet: Sendable {
    public let walletId: String
    public let state: SCAWalletState
}
