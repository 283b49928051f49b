import Foundation
import HoldfastProtocol
import Hummingbird

/// The instance's own calls (issue 5), each authenticated by its license token and a DPoP proof of its key
/// (`InstanceAuthenticator`): renew the license, rotate the key, get a wallet attestation.
enum InstanceCallRoutes {
    static func routes(_ services: ServerServices) -> [Route] {
        let tethering = TetheringServices(services)
        return [
            Route(.post, "/v1/holder/instances/{instanceId}/license", access: .open) { request, context in
                let (caller, application) = try await authenticate(request, context, rule: .renewal, tethering)
                let developmentMode = try tethering.devMode.evaluate(request, application: application,
                                                                     requestID: context.requestID)
                let body = try await JSONBodyDecoder.decode(LicenseRenewalRequest.self, from: request, context: context)
                let response = try await tethering.licenses.renew(body, instance: caller.instance, application: application,
                                                                  developmentMode: developmentMode)
                return try JSONResponse.make(response, headers: InstanceRoutes.noStore)
            },
            Route(.post, "/v1/holder/instances/{instanceId}/keys/rotate", access: .open) { request, context in
                let (caller, application) = try await authenticate(request, context, rule: .required, tethering)
                let developmentMode = try tethering.devMode.evaluate(request, application: application,
                                                                     requestID: context.requestID)
                let body = try await JSONBodyDecoder.decode(KeyRotationRequest.self, from: request, context: context)
                let response = try await tethering.licenses.rotate(body, instance: caller.instance, application: application,
                                                                   developmentMode: developmentMode)
                return try JSONResponse.make(response, headers: InstanceRoutes.noStore)
            },
            Route(.post, "/v1/holder/instances/{instanceId}/wallet-attestations", access: .open) { request, context in
                let (caller, application) = try await authenticate(request, context, rule: .required, tethering)
                // The body is validated but its `audience` does not change the attestation: in
                // draft-ietf-oauth-attestation-based-client-auth the issuer is named in the PoP the device signs.
                if request.headers[.contentType] != nil {
                    _ = try await JSONBodyDecoder.decode(WalletAttestationRequest.self, from: request, context: context)
                }
                let response = try await tethering.licenses.walletAttestation(instance: caller.instance,
                                                                              application: application)
                return try JSONResponse.make(response, headers: InstanceRoutes.noStore)
            },
        ]
    }

    private static func authenticate(_ request: Request, _ context: HoldfastRequestContext,
                                     rule: InstanceAuthenticator.TokenRule,
                                     _ tethering: TetheringServices) async throws
        -> (InstanceAuthenticator.Authenticated, HolderApplication) {
        let instanceId = context.parameters.get("instanceId") ?? ""
        let caller = try await tethering.authenticator.authenticate(request, instanceId: instanceId, rule: rule)
        guard let application = caller.application else {
            throw TetheringError.instanceRevoked("the instance's application was deleted")
        }
        return (caller, application)
    }
}
