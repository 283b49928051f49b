import Foundation
import HoldfastAdmin
import HoldfastProtocol
import Hummingbird
import HummingbirdAuth

/// Authenticates `.admin` routes (hummingbird-auth's `AuthenticatorMiddleware`): `Authorization: Bearer hfk_…` must
/// name an active admin key, else 401 `UNAUTHENTICATED` with `WWW-Authenticate: Bearer` (RFC 6750 §3). The key
/// becomes the request's identity, from which `AdminRequestContext` is made. A key whose scope is not in `scopes` is
/// 403 `INSUFFICIENT_SCOPE` (RFC 6750 §3.1).
struct AdminAuthenticator: AuthenticatorMiddleware {
    typealias Context = HoldfastRequestContext
    typealias Identity = HoldfastIdentity

    let adminKeys: AdminKeyService
    let clock: any HoldfastClock
    var scopes: Set<AdminKey.Scope> = [.admin]

    func authenticate(request: Request, context: Context) async throws -> HoldfastIdentity? {
        guard let authorization = request.headers[.authorization] else {
            throw AdminKeyError.unauthenticated(credentialsPresented: false)
        }
        let parts = authorization.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: true)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else {
            throw AdminKeyError.unauthenticated(credentialsPresented: true)
        }
        let key = try await adminKeys.authenticate(token: parts[1].trimmingCharacters(in: .whitespaces), now: clock.now())
        guard scopes.contains(key.scope) else {
            throw AdminKeyError.insufficientScope(required: scopes.map(\.rawValue).sorted().joined(separator: " "))
        }
        return .admin(key)
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

/// Authenticates `.verifier` routes: an admin key, or a key of scope `verifier` (`AdminAuthenticator`); where the route
/// takes one, a same-device `response_code` query parameter instead (OpenID4VP 1.0 §8.2), for the web page the
/// wallet was redirected to. Such a request carries no key, so it is limited per source like public routes.
struct VerifierAuthenticator: RouterMiddleware {
    typealias Context = HoldfastRequestContext

    let keys: AdminAuthenticator
    let acceptsResponseCode: Bool
    let limit: PublicRouteLimit

    func handle(_ request: Request, context: Context,
                next: (Request, Context) async throws -> Response) async throws -> Response {
        if acceptsResponseCode, request.headers[.authorization] == nil,
           let code = request.uri.queryParameters["response_code"] {
            try limit.admit(request, from: context.remoteAddress)
            var context = context
            context.identity = .responseCode(String(code))
            return try await next(request, context)
        }
        return try await keys.handle(request, context: context, next: next)
    }
}
