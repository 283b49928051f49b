import Hummingbird

/// One operation of the HTTP API. The router is built from `[Route]` (Hummingbird cannot list its routes), so
/// the same table drives routing, the 405 answer for a known path with another method, and the test that
/// every route is in `openapi.json` and every documented operation is routed.
public struct Route: Sendable {
    public enum Access: Sendable, Equatable {
        /// No authentication (health, metrics, JWKS, OpenAPI).
        case open
        /// A valid, unrevoked admin API key as `Authorization: Bearer …`.
        case admin
    }

    public typealias Handler = @Sendable (Request, HoldfastRequestContext) async throws -> Response

    public let method: HTTPRequest.Method
    /// The OpenAPI path template (`/v1/admin/keys/{id}`), exactly as in `openapi.json`.
    public let path: String
    public let access: Access
    public let handler: Handler

    public init(_ method: HTTPRequest.Method, _ path: String, access: Access, handler: @escaping Handler) {
        self.method = method
        self.path = path
        self.access = access
        self.handler = handler
    }

    /// The Hummingbird form of `path`: `{id}` becomes `:id`.
    var routerPath: String {
        path.split(separator: "/", omittingEmptySubsequences: false).map { segment in
            segment.hasPrefix("{") && segment.hasSuffix("}") ? ":" + segment.dropFirst().dropLast() : segment
        }.joined(separator: "/")
    }

    /// Whether a concrete request path matches this template (`{x}` matches one non-empty segment).
    func matches(path requestPath: String) -> Bool {
        let template = path.split(separator: "/", omittingEmptySubsequences: false)
        let actual = requestPath.split(separator: "/", omittingEmptySubsequences: false)
        guard template.count == actual.count else { return false }
        return zip(template, actual).allSatisfy { pattern, segment in
            pattern.hasPrefix("{") && pattern.hasSuffix("}") ? !segment.isEmpty : pattern == segment
        }
    }
}

/// The routes of a running server, for the middlewares that need to look them up.
public struct RouteTable: Sendable {
    public let routes: [Route]

    public init(_ routes: [Route]) {
        self.routes = routes
    }

    /// The methods routed for a concrete path (empty when the path is unknown).
    func methods(forPath path: String) -> [HTTPRequest.Method] {
        routes.filter { $0.matches(path: path) }.map(\.method)
    }

    /// Operations as `"GET /v1/admin/keys/{id}"`, for the OpenAPI coverage check.
    public var operations: Set<String> {
        Set(routes.map { "\($0.method.rawValue) \($0.path)" })
    }
}
