import HoldfastProtocol
import Hummingbird

/// `POST /v1/holder/instances/{instanceId}/wallet-attestations` (docs/server-api.md "Instance calls"): a current license token.
struct WalletAttestationController: HoldfastController {
    let attestations: WalletAttestationService
    let clock: any HoldfastClock

    var routes: [Route] {
        [
            // The body is validated but its `audience` does not change the attestation: in
            // draft-ietf-oauth-attestation-based-client-auth the issuer is named in the PoP the device signs.
            .instance(.post, TetheringRoutes.Template.walletAttestations, .current,
                      body: WalletAttestationRequest.self) { _, context, _ in
                let caller = context.caller
                let response = try await attestations.walletAttestation(instance: caller.instance,
                                                                        application: caller.application, now: clock.now())
                return try JSONResponse.make(response, headers: JSONResponse.noStore)
            },
        ]
    }
}
