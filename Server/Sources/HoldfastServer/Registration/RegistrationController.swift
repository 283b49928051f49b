import HoldfastProtocol
import Hummingbird

/// Registration (docs/server-api.md "Registration wire format"): a challenge, then the instance. Both are `.public`: the device
/// has no credential yet; the single-use challenge and the platform evidence over the binding nonce are what it
/// proves.
struct RegistrationController: HoldfastController {
    typealias Template = TetheringRoutes.Template

    let applications: HolderApplicationService
    let challenges: ChallengeStore
    let registration: RegistrationService
    let devMode: DevModeGuard
    let clock: any HoldfastClock

    var routes: [Route] {
        [
            .public(.post, Template.challenges) { _, context in
                let applicationId = try context.parameters.require("applicationId")
                _ = try await applications.get(id: applicationId)
                let challenge = challenges.issue(applicationId: applicationId, now: clock.now())
                return try JSONResponse.make(challenge, status: .created, headers: JSONResponse.noStore)
            },
            .public(.post, Template.instances) { request, context in
                // As stored: a Play Integrity key stays sealed in it until the verifier opens it.
                let application = try await applications.stored(id: try context.parameters.require("applicationId"))
                let developmentMode = try devMode.evaluate(request, application: application, requestID: context.requestID)
                let body = try await JSONBodyDecoder.decode(InstanceRegistrationRequest.self, from: request, context: context)
                let response = try await registration.register(body, application: application,
                                                               developmentMode: developmentMode, now: clock.now())
                return try JSONResponse.make(response, status: .created, headers: JSONResponse.noStore)
            },
        ]
    }
}
