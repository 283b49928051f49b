import Foundation
import HoldfastAdmin
import HoldfastProtocol
import Hummingbird
import MDoc
import X509

/// The verifier's admin routes (docs/server-api.md "Verifier"):
/// - `GET /v1/presentations/verifier-cas`: the CA wallets add as a trusted verifier;
/// - `POST, GET /v1/presentations/trusted-issuers`, `DELETE …/{id}`: IACAs trusted beside the tenant's own.
struct PresentationAdminController: HoldfastController {
    let certificates: VerifierCertificates
    let trusted: PresentationTrustedIssuerService
    let clock: any HoldfastClock

    var routes: [Route] {
        [
            .admin(.get, PresentationAdminRoutes.Template.verifierCAs) { _, _ in
                try JSONResponse.make(try certificates.caList())
            },
            .admin(.post, PresentationAdminRoutes.Template.trustedIssuers) { request, context in
                let body = try await JSONBodyDecoder.decode(PresentationTrustedIssuer.self, from: request, context: context)
                return try JSONResponse.make(try await trusted.add(body, now: clock.now()), status: .created)
            },
            .admin(.get, PresentationAdminRoutes.Template.trustedIssuers) { _, _ in
                try JSONResponse.make(try await trusted.list())
            },
            .admin(.delete, PresentationAdminRoutes.Template.trustedIssuer) { _, context in
                try await trusted.delete(id: try context.parameters.require("id"))
                return Response(status: .noContent)
            },
        ]
    }
}
