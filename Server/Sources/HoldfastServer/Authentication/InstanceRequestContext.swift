import Hummingbird

/// The context of an `.instance` route: it can only be made from a request `InstanceAuthenticatorMiddleware`
/// accepted, so a handler that receives it has the authenticated instance and its application in hand.
public struct InstanceRequestContext: HoldfastContext, ChildRequestContext {
    public var coreContext: CoreRequestContextStorage
    public let requestID: String
    public let maxUploadSize: Int
    public let caller: AuthenticatedInstance

    public init(context: HoldfastRequestContext) throws {
        guard case .instance(let caller) = context.identity else {
            throw AuthenticationError.unauthenticated(.invalidToken, "an Authorization: DPoP <license token> header is required")
        }
        self.coreContext = context.coreContext
        self.requestID = context.requestID
        self.maxUploadSize = context.maxUploadSize
        self.caller = caller
    }
}
