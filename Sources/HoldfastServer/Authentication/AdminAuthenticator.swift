import Hummingbird
import HummingbirdAuth

/// Authenticates `.admin` routes (hummingbird-auth's `AuthenticatorMiddleware`): `Authorization: Bearer hfk_…` must
/// name an active admin key, else 401 `UNAUTHENTICATED` with `WWW-Authenticate: Bearer` (RFC 6750 §3). The key
/// becomes the request's identity, from which `AdminRequestContext` is made.
struct AdminAuthenticator: AuthenticatorMiddleware {
    typealias Context = HoldfastRequestContext
    typealias Identity = HoldfastIdentity

    let adminKeys: AdminKeyService

    func authenticate(request: Request, context: Context) async throws -> HoldfastIdentity? {
        guard let authorization = request.headers[.authorization] else {
            throw AdminKeyError.unauthenticated(credentialsPresented: false)
        }
        let parts = authorization.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: true)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else {
            throw AdminKeyError.unauthenticated(credentialsPresented: true)
        }
        return .admin(try await adminKeys.authenticate(token: parts[1].trimmingCharacters(in: .whitespaces)))
    }

    /// As hummingbird-auth's default, and the key's id goes into every log line of the request.
    func handle(_ request: Request, context: Context,
                next: (Request, Context) async throws -> Response) async throws -> Response {
        var context = context
        let identity = try await authenticate(request: request, context: context)
        context.identity = identity
        if case .admin(let key) = identity { context.logger[metadataKey: "admin_key_id"] = .string(key.id) }
        return try await next(request, context)
    }
}
