import HoldfastProtocol
import Hummingbird

/// `POST /v1/holder/instances/{instanceId}/keys/rotate` (docs/server-api.md "Instance calls"): a current license token, the
/// dev-mode guard evaluated (the new key's evidence may be waived like a registration's).
struct KeyRotationController: HoldfastController {
    let rotation: KeyRotationService
    let clock: any HoldfastClock

    var routes: [Route] {
        [
            .instance(.post, TetheringRoutes.Template.rotateKey, .currentWithEvidence, body: KeyRotationRequest.self) { _, context, body in
                let caller = context.caller
                let response = try await rotation.rotate(body, instance: caller.instance, application: caller.application,
                                                         developmentMode: caller.developmentMode, now: clock.now())
                return try JSONResponse.make(response, headers: JSONResponse.noStore)
            },
        ]
    }
}
