import Hummingbird

/// Guards `.admin` routes: `Authorization: Bearer hfk_…` must name an active admin key, else 401
/// `UNAUTHENTICATED` with `WWW-Authenticate: Bearer` (RFC 6750 §3). The key is put in `context.adminKey`.
struct AdminAuthMiddleware: RouterMiddleware {
    typealias Context = HoldfastRequestContext

    let adminKeys: AdminKeyService

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard let authorization = request.headers[.authorization] else {
            throw AdminKeyError.unauthenticated(credentialsPresented: false)
        }
        let parts = authorization.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: true)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else {
            throw AdminKeyError.unauthenticated(credentialsPresented: true)
        }
        var context = context
        let key = try await adminKeys.authenticate(token: parts[1].trimmingCharacters(in: .whitespaces))
        context.adminKey = key
        context.logger[metadataKey: "admin_key_id"] = .string(key.id)
        return try await next(request, context)
    }
}
