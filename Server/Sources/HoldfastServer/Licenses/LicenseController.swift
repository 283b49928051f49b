import HoldfastProtocol
import Hummingbird

/// `POST /v1/holder/instances/{instanceId}/license` (docs/server-api.md "Instance calls"): renewal, with an expired token
/// accepted and the dev-mode guard evaluated.
struct LicenseController: HoldfastController {
    let renewal: LicenseRenewalService
    let clock: any HoldfastClock

    var routes: [Route] {
        [
            .instance(.post, TetheringRoutes.Template.license, .renewal, body: LicenseRenewalRequest.self) { _, context, body in
                let caller = context.caller
                let response = try await renewal.renew(body, instance: caller.instance, application: caller.application,
                                                       developmentMode: caller.developmentMode, now: clock.now())
                return try JSONResponse.make(response, headers: JSONResponse.noStore)
            },
        ]
    }
}
