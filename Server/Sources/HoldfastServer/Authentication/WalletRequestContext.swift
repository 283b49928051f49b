import Hummingbird

/// The context of a `.wallet` route: made only from a request `SCAWalletAuthenticator` accepted.
public struct WalletRequestContext: HoldfastContext, ChildRequestContext {
    public var coreContext: CoreRequestContextStorage
    public let requestID: String
    public let maxUploadSize: Int
    public let wallet: AuthenticatedWallet

    public init(context: HoldfastRequestContext) throws {
        guard case .wallet(let wallet) = context.identity else {
            throw AuthenticationError.unauthenticated(.invalidDPoPProof, "a DPoP proof made with the wallet key is required",
                                                      error: .invalidDPoPProof)
        }
        self.coreContext = context.coreContext
        self.requestID = context.requestID
        self.maxUploadSize = context.maxUploadSize
        self.wallet = wallet
    }
}
