import HoldfastProtocol
import Hummingbird
import HummingbirdAuth

/// Authenticates every `.instance` route (hummingbird-auth's `AuthenticatorMiddleware`): the license token and DPoP
/// proof of the instance named by the path's `{instanceId}` (`InstanceAuthenticator`), then, where the route
/// evaluates it, the dev-mode guard. The result becomes the request's identity, from which
/// `InstanceRequestContext` is made; a request that does not authenticate never reaches the handler.
struct InstanceAuthenticatorMiddleware: AuthenticatorMiddleware {
    typealias Context = HoldfastRequestContext
    typealias Identity = HoldfastIdentity

    let authenticator: InstanceAuthenticator
    let devMode: DevModeGuard
    let access: InstanceAccess
    let clock: any HoldfastClock

    func authenticate(request: Request, context: Context) async throws -> HoldfastIdentity? {
        let instanceId = try context.parameters.require("instanceId")
        var caller = try await authenticator.authenticate(request, instanceId: instanceId, rule: access.token,
                                                          now: clock.now())
        if access.evaluatesDevelopmentMode {
            caller.developmentMode = try devMode.evaluate(request, application: caller.application,
                                                          requestID: context.requestID)
        }
        return .instance(caller)
    }
}
