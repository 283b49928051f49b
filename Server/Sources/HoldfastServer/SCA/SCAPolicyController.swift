import HoldfastAdmin
import HoldfastProtocol
import Hummingbird

/// The operations' signing policies and the proofs made under them (docs/server-api.md "SCA wallet (back end)"): `GET /v1/sca/policies`
/// (public: what to sign is no secret), `PUT /v1/sca/policies` (admin), `POST /v1/sca/proofs/verify` (an admin key
/// or a key of scope `sca`, the bank's back end).
struct SCAPolicyController: HoldfastController {
    let policyService: SCAPolicyService
    let proofs: SCAProofService
    let clock: any HoldfastClock

    var routes: [Route] {
        [
            .public(.get, SCARoutes.Template.policies) { _, _ in
                try JSONResponse.make(try await policyService.policies())
            },
            .admin(.put, SCARoutes.Template.policies) { request, context in
                let body = try await JSONBodyDecoder.decode([SCAPolicy].self, from: request, context: context)
                return try JSONResponse.make(try await policyService.replace(body, now: clock.now()))
            },
            .sca(.post, SCARoutes.Template.verifyProof) { request, context in
                let body = try await JSONBodyDecoder.decode(SCAProofVerifyRequest.self, from: request, context: context)
                return try JSONResponse.make(try await proofs.verify(body, now: clock.now()), headers: JSONResponse.noStore)
            },
        ]
    }
}
