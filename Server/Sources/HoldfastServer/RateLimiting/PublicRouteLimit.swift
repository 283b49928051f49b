import HTTPTypes
import HoldfastProtocol
import Hummingbird
import NIOCore

/// The per-source limit in front of every `.public` route (docs/operations.md "Configuration"): the request's source
/// (`RequestSource`) takes a token from its bucket, or the request is refused with `429 RATE_LIMITED` and
/// `Retry-After` before any work is done for it. A request without an IP source (a Unix socket) is not counted.
struct PublicRouteLimit: Sendable {
    private let limiter: SourceRateLimiter?
    private let trustedProxies: [IPNetwork]

    static let forwardedFor = HTTPField.Name("X-Forwarded-For")!

    init(_ configuration: RateLimitConfiguration) {
        self.limiter = configuration.isEnabled
            ? SourceRateLimiter(rate: configuration.requestsPerSecond, burst: configuration.burst,
                                maximumSources: configuration.maximumSources)
            : nil
        self.trustedProxies = configuration.trustedProxies
    }

    func admit(_ request: Request, from peer: SocketAddress?) throws(RateLimitedError) {
        guard let limiter, let source = source(of: request, from: peer) else { return }
        if case .limited(let seconds) = limiter.admit(source, at: .now) {
            throw RateLimitedError(retryAfterSeconds: seconds)
        }
    }

    /// The bucket the request's source (`RequestSource`, through the trusted proxies) is counted in, whether or not the
    /// limit is on: the per-source budgets of single routes (SCA activation codes) count by it too. Nil without an IP
    /// source (a Unix socket).
    func source(of request: Request, from peer: SocketAddress?) -> SourceKey? {
        guard let peer = peer.flatMap(IPAddress.init) else { return nil }
        let forwarded = trustedProxies.isEmpty ? [] : request.headers[values: Self.forwardedFor]
        return RequestSource.resolve(peer: peer, forwardedFor: forwarded, trustedProxies: trustedProxies).map(SourceKey.init)
    }
}

/// `429 Too Many Requests` (RFC 6585 §4) with `Retry-After` in seconds.
struct RateLimitedError: ProblemConvertible {
    let retryAfterSeconds: Int

    var problemStatus: HTTPResponse.Status { .tooManyRequests }
    var problemCode: HoldfastErrorCode { .rateLimited }
    var problemTitle: String { "Too many requests" }
    var problemDetail: String? { "too many requests from this source; retry after \(retryAfterSeconds) s" }
    var problemHeaders: HTTPFields {
        var headers = HTTPFields()
        headers[.retryAfter] = String(retryAfterSeconds)
        return headers
    }
}
