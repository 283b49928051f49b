import Foundation
import HoldfastAdmin
import HoldfastProtocol
import Hummingbird

/// The SCA wallet's back end (README "SCA wallet"):
/// - `POST /v1/sca/wallets`, `GET /v1/sca/wallets?userId=`, `GET …/{walletId}`, `PUT …/{walletId}/lock | unlock |
///   credentials/reset`, `DELETE …/{walletId}` (admin);
/// - `POST /v1/sca/activations` (public, the device with its one-time code);
/// - `GET /v1/sca/policies` (public: what to sign is no secret), `PUT /v1/sca/policies` (admin);
/// - `POST /v1/sca/proofs/verify` (admin key or a key of scope `sca`).
struct SCAController: HoldfastController {
    static let wallets: RouteTemplate = "/v1/sca/wallets"
    static let wallet: RouteTemplate = "/v1/sca/wallets/{walletId}"
    static let lock: RouteTemplate = "/v1/sca/wallets/{walletId}/lock"
    static let unlock: RouteTemplate = "/v1/sca/wallets/{walletId}/unlock"
    static let reset: RouteTemplate = "/v1/sca/wallets/{walletId}/credentials/reset"
    static let activations: RouteTemplate = "/v1/sca/activations"
    static let policies: RouteTemplate = "/v1/sca/policies"
    static let verify: RouteTemplate = "/v1/sca/proofs/verify"

    let wallets: SCAWalletService
    let policyService: SCAPolicyService
    let proofs: SCAProofService
    let clock: any HoldfastClock

    var routes: [Route] {
        [
            .admin(.post, Self.wallets) { request, context in
                let body = try await JSONBodyDecoder.decode(SCAWalletCreateRequest.self, from: request, context: context)
                return try JSONResponse.make(try await wallets.create(body, now: clock.now()), status: .created, headers: JSONResponse.noStore)
            },
            .admin(.get, Self.wallets) { request, _ in
                guard let userId = request.uri.queryParameters["userId"].map(String.init), !userId.isEmpty else {
                    throw ProblemError.invalidField("userId", code: ProblemDetails.FieldError.required, detail: "the query parameter userId is required")
                }
                return try JSONResponse.make(try await wallets.list(userId: userId))
            },
            .admin(.get, Self.wallet) { _, context in
                try JSONResponse.make(try await wallets.get(id: try context.parameters.require("walletId")))
            },
            .admin(.put, Self.lock) { request, context in
                let body = try await JSONBodyDecoder.decode(SCAWalletLockRequest.self, from: request, context: context)
                return try JSONResponse.make(try await wallets.lock(id: try context.parameters.require("walletId"), reason: body.reason,
                                                                    now: clock.now()))
            },
            .admin(.put, Self.unlock) { _, context in
                try JSONResponse.make(try await wallets.unlock(id: try context.parameters.require("walletId"), now: clock.now()))
            },
            .admin(.put, Self.reset) { _, context in
                try JSONResponse.make(try await wallets.resetCredentials(id: try context.parameters.require("walletId"), now: clock.now()))
            },
            .admin(.delete, Self.wallet) { _, context in
                try await wallets.delete(id: try context.parameters.require("walletId"), now: clock.now())
                return Response(status: .noContent)
            },
            .public(.post, Self.activations) { request, context in
                let body = try await JSONBodyDecoder.decode(SCAActivationRequest.self, from: request, context: context)
                return try JSONResponse.make(try await wallets.activate(body, now: clock.now()), status: .created, headers: JSONResponse.noStore)
            },
            .public(.get, Self.policies) { _, _ in
                try JSONResponse.make(try await policyService.policies())
            },
            .admin(.put, Self.policies) { request, context in
                let body = try await JSONBodyDecoder.decode([SCAPolicy].self, from: request, context: context)
                return try JSONResponse.make(try await policyService.replace(body, now: clock.now()))
            },
            .sca(.post, Self.verify) { request, context in
                let body = try await JSONBodyDecoder.decode(SCAProofVerifyRequest.self, from: request, context: context)
                return try JSONResponse.make(try await proofs.verify(body, now: clock.now()), headers: JSONResponse.noStore)
            },
        ]
    }
}
