import Hummingbird

/// The routes of a running server, for the middlewares that need to look them up.
public struct RouteTable: Sendable {
    public let routes: [Route]

    public init(_ routes: [Route]) {
        self.routes = routes
    }

    public init(_ controllers: [any HoldfastController]) {
        self.routes = controllers.flatMap(\.routes)
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
