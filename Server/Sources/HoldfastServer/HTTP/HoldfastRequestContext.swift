import Hummingbird
import HummingbirdAuth
import NIOCore

/// What every Holdfast request context carries, whichever authentication its route declared.
public protocol HoldfastContext: RequestContext {
    /// `X-Request-Id`: the caller's when it is sane, else generated; in every log line of the request.
    var requestID: String { get }
}

/// The per-request context every request starts with: the request id, the body limit from the configuration, and
/// the identity an authenticator middleware established (hummingbird-auth's `AuthRequestContext`). Handlers of
/// `.public` routes receive it; `.admin` and `.instance` routes receive the child contexts `AdminRequestContext`
/// and `InstanceRequestContext`, which exist only once their authenticator succeeded (DESIGN.md §4 "Auth").
public struct HoldfastRequestContext: HoldfastContext, AuthRequestContext, RemoteAddressRequestContext {
    public var coreContext: CoreRequestContextStorage
    public var requestID: String
    /// Set from `HoldfastConfiguration.maxBodyBytes` by `RequestIDMiddleware` before any handler runs.
    public var maxUploadSize: Int
    /// Set by `AdminAuthenticator` or `InstanceAuthenticatorMiddleware`; nil on `.public` routes.
    public var identity: HoldfastIdentity?
    /// The connection the request came on (its peer is the source the per-source limits count).
    private let channel: any Channel

    /// The connection's peer; nil for a Unix socket.
    public var remoteAddress: SocketAddress? { channel.remoteAddress }

    public init(source: ApplicationRequestContextSource) {
        self.coreContext = .init(source: source)
        self.channel = source.channel
        self.requestID = ""
        self.maxUploadSize = HoldfastConfiguration.defaultMaxBodyBytes
        self.identity = nil
    }
}
