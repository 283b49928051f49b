import HoldfastAdmin
import HoldfastProtocol
import Hummingbird

/// The device eligibility rules of SCA wallets (docs/server-api.md "SCA wallet (back end)"): `GET`/`PUT /v1/sca/eligibility` and
/// `GET /v1/sca/eligibility/denials/{reference}` (admin), `POST /v1/sca/eligibility/checks` (public, the device
/// before it is provisioned).
struct SCAEligibilityController: HoldfastController {
    let eligibilityService: SCAEligibilityService
    let clock: any HoldfastClock

    var routes: [Route] {
        [
            .admin(.get, SCAAdminRoutes.Template.eligibility) { _, _ in
                try JSONResponse.make(try await eligibilityService.rules())
            },
            .admin(.put, SCAAdminRoutes.Template.eligibility) { request, context in
                let body = try await JSONBodyDecoder.decode(SCAEligibilityRules.self, from: request, context: context)
                return try JSONResponse.make(try await eligibilityService.replace(body, now: clock.now()))
            },
            .public(.post, SCARoutes.Template.eligibilityChecks) { request, context in
                let body = try await JSONBodyDecoder.decode(SCAEligibilityCheckRequest.self, from: request, context: context)
                return try JSONResponse.make(try await eligibilityService.check(body, now: clock.now()), headers: JSONResponse.noStore)
            },
            .admin(.get, SCAAdminRoutes.Template.denial) { _, context in
                try JSONResponse.make(try await eligibilityService.denial(reference: try context.parameters.require("reference")))
            },
        ]
    }
}
