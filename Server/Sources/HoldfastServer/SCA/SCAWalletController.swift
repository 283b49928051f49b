import Foundation
import HoldfastAdmin
import HoldfastProtocol
import Hummingbird

/// The bank's back end manages its customers' SCA wallets (docs/server-api.md "SCA wallet (back end)"), admin key: `POST /v1/sca/wallets`,
/// `GET /v1/sca/wallets?userId=`, `GET …/{walletId}`, `PUT …/{walletId}/lock | unlock | credentials/reset |
/// settings`, `POST …/{walletId}/products-updated`, `DELETE …/{walletId}`. The device's own calls are
/// `SCADeviceController`'s; signing policies and proofs `SCAPolicyController`'s; eligibility `SCAEligibilityController`'s.
struct SCAWalletController: HoldfastController {
    let wallets: SCAWalletService
    let clock: any HoldfastClock

    var routes: [Route] {
        [
            .admin(.post, SCAAdminRoutes.Template.wallets) { request, context in
                let body = try await JSONBodyDecoder.decode(SCAWalletCreateRequest.self, from: request, context: context)
                return try JSONResponse.make(try await wallets.create(body, now: clock.now()), status: .created, headers: JSONResponse.noStore)
            },
            .admin(.get, SCAAdminRoutes.Template.wallets) { request, _ in
                guard let userId = request.uri.queryParameters[Substring(SCARoutes.Query.userId)].map(String.init), !userId.isEmpty else {
                    throw ProblemError.invalidField("userId", code: ProblemDetails.FieldError.required, detail: "the query parameter userId is required")
                }
                return try JSONResponse.make(try await wallets.list(userId: userId))
            },
            .admin(.get, SCAAdminRoutes.Template.wallet) { _, context in
                try JSONResponse.make(try await wallets.get(id: try context.parameters.require("walletId")))
            },
            .admin(.put, SCAAdminRoutes.Template.lock) { request, context in
                let body = try await JSONBodyDecoder.decode(SCAWalletLockRequest.self, from: request, context: context)
                return try JSONResponse.make(try await wallets.lock(id: try context.parameters.require("walletId"), reason: body.reason,
                                                                    now: clock.now()))
            },
            .admin(.put, SCAAdminRoutes.Template.unlock) { _, context in
                try JSONResponse.make(try await wallets.unlock(id: try context.parameters.require("walletId"), now: clock.now()))
            },
            .admin(.put, SCAAdminRoutes.Template.resetCredentials) { _, context in
                try JSONResponse.make(try await wallets.resetCredentials(id: try context.parameters.require("walletId"), now: clock.now()))
            },
            .admin(.put, SCAAdminRoutes.Template.settings) { request, context in
                let body = try await JSONBodyDecoder.decode(SCAWalletSettings.self, from: request, context: context)
                return try JSONResponse.make(try await wallets.updateSettings(id: try context.parameters.require("walletId"), body, now: clock.now()))
            },
            .admin(.post, SCAAdminRoutes.Template.productsUpdated) { request, context in
                let body = try await JSONBodyDecoder.decode(SCAProductsUpdated.self, from: request, context: context)
                return try JSONResponse.make(try await wallets.productsUpdated(id: try context.parameters.require("walletId"), data: body.data,
                                                                               now: clock.now()))
            },
            .admin(.delete, SCAAdminRoutes.Template.wallet) { _, context in
                try await wallets.delete(id: try context.parameters.require("walletId"), now: clock.now())
                return Response(status: .noContent)
            },
        ]
    }
}
