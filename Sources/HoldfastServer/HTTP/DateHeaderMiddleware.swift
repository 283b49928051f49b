import Foundation
import HoldfastProtocol
import Hummingbird

/// Puts the server's clock in a `Date` header (RFC 9110 §6.6.1) on every response, problems included, so that a
/// device learns its clock offset from any answer (issue 5, "signed requests").
struct DateHeaderMiddleware: RouterMiddleware {
    typealias Context = HoldfastRequestContext

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var response = try await next(request, context)
        if response.headers[.date] == nil { response.headers[.date] = HTTPDate.format(Date()) }
        return response
    }
}
