import Hummingbird

/// The context of an `.admin` route: it can only be made from a request `AdminAuthenticator` accepted, so a handler
/// that receives it has an active admin key in hand (Hummingbird's `ChildRequestContext`).
public struct AdminRequestContext: HoldfastContext, ChildRequestContext {
    public var coreContext: CoreRequestContextStorage
    public let requestID: String
    public let maxUploadSize: Int
    /// The key the caller authenticated with.
    public let adminKey: AdminKey

    public init(context: HoldfastRequestContext) throws {
        guard case .admin(let key) = context.identity else {
            throw AdminKeyError.unauthenticated(credentialsPresented: false)
        }
        self.coreContext = context.coreContext
        self.requestID = context.requestID
        self.maxUploadSize = context.maxUploadSize
        self.adminKey = key
    }
}
