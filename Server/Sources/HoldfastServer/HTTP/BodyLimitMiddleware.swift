import Hummingbird

/// Refuses a declared `Content-Length` over the limit before any handler runs, so that routes which never
/// read their body answer 413 too. Bodies without a length (chunked) are bounded when collected
/// (`Request.decodeJSON`, `context.maxUploadSize`).
struct BodyLimitMiddleware: RouterMiddleware {
    typealias Context = HoldfastRequestContext

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        if let declared = request.headers[.contentLength], let length = Int(declared), length > context.maxUploadSize {
            throw ProblemError.payloadTooLarge(limit: context.maxUploadSize)
        }
        return try await next(request, context)
    }
}
