import Hummingbird

/// `GET /.well-known/jwks.json` — the tenant's public signing keys (RFC 7517 §5), cacheable for five minutes
/// so that a CDN can serve it; a rotated-out key stays here while it is `published`.
enum TenantKeyRoutes {
    static func routes(_ services: ServerServices) -> [Route] {
        let jwks = services.keyring.jwks
        return [
            Route(.get, "/.well-known/jwks.json", access: .open) { _, _ in
                var headers = HTTPFields()
                headers[.cacheControl] = "public, max-age=300"
                return try JSONResponse.make(jwks, headers: headers)
            },
        ]
    }
}
