import HoldfastProtocol
import Hummingbird

/// `GET /.well-known/jwks.json` — the tenant's public signing keys (RFC 7517 §5), cacheable for five minutes
/// so that a CDN can serve it; a rotated-out key stays here while it is `published`.
struct TenantKeyController: HoldfastController {
    let keyring: TenantKeyring

    var routes: [Route] {
        let jwks = keyring.jwks
        return [
            .public(.get, OperationalRoutes.Template.jwks) { _, _ in
                var headers = HTTPFields()
                headers[.cacheControl] = "public, max-age=300"
                return try JSONResponse.make(jwks, headers: headers)
            },
        ]
    }
}
