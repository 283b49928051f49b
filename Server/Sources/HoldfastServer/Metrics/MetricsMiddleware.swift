import Hummingbird

/// Records every request after the problem middleware has turned errors into responses, so failures are
/// counted with their real status. The route label is the template (`/v1/admin/keys/{id}`, `NotFound`), never
/// the raw path, so label cardinality stays bounded.
struct MetricsMiddleware: RouterMiddleware {
    typealias Context = HoldfastRequestContext

    let metrics: HTTPMetrics

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let start = ContinuousClock.now
        let response = try await next(request, context)
        metrics.record(method: request.method.rawValue, route: Self.routeLabel(context.endpointPath),
                       status: Int(response.status.code), duration: ContinuousClock.now - start)
        return response
    }

    /// Hummingbird's `:id` back to the documented `{id}`.
    static func routeLabel(_ endpointPath: String?) -> String {
        guard let endpointPath else { return "NotFound" }
        guard endpointPath.utf8.contains(UInt8(ascii: ":")) else { return endpointPath }
        return endpointPath.split(separator: "/", omittingEmptySubsequences: false).map { segment in
            segment.hasPrefix(":") ? "{" + segment.dropFirst() + "}" : String(segment)
        }.joined(separator: "/")
    }
}
