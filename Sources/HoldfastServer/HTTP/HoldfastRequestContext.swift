import Hummingbird

/// The per-request context of every Holdfast route: the request id, the body limit from the configuration,
/// and the admin key once the admin middleware has authenticated the caller.
public struct HoldfastRequestContext: RequestContext {
    public var coreContext: CoreRequestContextStorage
    /// `X-Request-Id`: the caller's when it is sane, else generated; in every log line of the request.
    public var requestID: String
    /// Set from `HoldfastConfiguration.maxBodyBytes` by `RequestIDMiddleware` before any handler runs.
    public var maxUploadSize: Int
    /// The authenticated admin key on `.admin` routes; nil elsewhere.
    public var adminKey: AdminKey?

    public init(source: ApplicationRequestContextSource) {
        self.coreContext = .init(source: source)
        self.requestID = ""
        self.maxUploadSize = HoldfastConfiguration.defaultMaxBodyBytes
        self.adminKey = nil
    }
}
