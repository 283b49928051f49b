import Foundation
import HoldfastProtocol
import Hummingbird

/// Puts the server's clock in a `Date` header (RFC 9110 §6.6.1) on every response, problems included, so that a
/// device learns its clock offset from any answer (docs/server-api.md "Instance calls").
struct DateHeaderMiddleware: RouterMiddleware {
    typealias Context = HoldfastRequestContext

    let clock: any HoldfastClock

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var response = try await next(request, context)
        if response.headers[.date] == nil { response.headers[.date] = HTTPDate.format(clock.now()) }
        return response
    }
}
