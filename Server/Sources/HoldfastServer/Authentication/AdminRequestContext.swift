import HoldfastAdmin
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

/// Who calls a `.verifier` route: a key (admin or `verifier` scope), or a same-device `response_code`.
public enum VerifierCaller: Sendable {
    case key(AdminKey)
    case responseCode(String)
}

/// The context of a `.verifier` route: made only from a request `VerifierAuthenticator` accepted.
public struct VerifierRequestContext: HoldfastContext, ChildRequestContext {
    public var coreContext: CoreRequestContextStorage
    public let requestID: String
    public let maxUploadSize: Int
    public let caller: VerifierCaller

    public init(context: HoldfastRequestContext) throws {
        switch context.identity {
        case .admin(let key): caller = .key(key)
        case .responseCode(let code): caller = .responseCode(code)
        default: throw AdminKeyError.unauthenticated(credentialsPresented: false)
        }
        self.coreContext = context.coreContext
        self.requestID = context.requestID
        self.maxUploadSize = context.maxUploadSize
    }
}
