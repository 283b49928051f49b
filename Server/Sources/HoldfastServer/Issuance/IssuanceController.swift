import Foundation
import HoldfastAdmin
import HoldfastProtocol
import Hummingbird

/// The mDoc issuer's admin routes (docs/server-api.md "API", "Credentials"):
/// - `GET /v1/credentials/mobile/iacas`: the IACA certificates verifiers should trust;
/// - `POST, GET /v1/credentials/mobile/configurations`, `GET, DELETE …/configurations/{id}`;
/// - `POST /v1/credentials/mobile/offers`: an OpenID4VCI credential offer with a pre-authorized code;
/// - `GET /v1/credentials/mobile?limit=&cursor=`: the issued credentials;
/// - `POST /v1/credentials/mobile/{credentialId}/status`: revoke, suspend or reinstate one;
/// - `POST, GET /v1/credentials/mobile/wallet-providers`, `DELETE …/{id}`: other wallet providers whose client
///   attestations the token endpoint accepts.
struct IssuanceController: HoldfastController {
    typealias Routes = CredentialAdminRoutes.Template

    let certificates: IssuerCertificateStore
    let configurationService: CredentialConfigurationService
    let offerService: CredentialOfferService
    let issued: IssuedCredentialService
    let walletProviders: WalletProviderService
    let clock: any HoldfastClock

    var routes: [Route] {
        [
            .admin(.get, Routes.iacas) { _, _ in
                let current = await certificates.current(now: clock.now())
                return try JSONResponse.make(IssuerCertificateAdmin.iacas(current))
            },
            .admin(.post, Routes.configurations) { request, context in
                let body = try await JSONBodyDecoder.decode(CredentialConfiguration.self, from: request, context: context)
                return try JSONResponse.make(try await configurationService.create(body, now: clock.now()), status: .created)
            },
            .admin(.get, Routes.configurations) { _, _ in
                try JSONResponse.make(try await configurationService.list())
            },
            .admin(.get, Routes.configuration) { _, context in
                try JSONResponse.make(try await configurationService.get(id: try context.parameters.require("id")))
            },
            .admin(.delete, Routes.configuration) { _, context in
                try await configurationService.delete(id: try context.parameters.require("id"))
                return Response(status: .noContent)
            },
            .admin(.post, Routes.offers) { request, context in
                let body = try await JSONBodyDecoder.decode(CredentialOfferRequest.self, from: request, context: context)
                return try JSONResponse.make(try await offerService.create(body, now: clock.now()), status: .created,
                                             headers: JSONResponse.noStore)
            },
            .admin(.get, Routes.credentials) { request, _ in
                try JSONResponse.make(try await issued.list(limit: try QueryParameters.integer("limit", in: request),
                                                            cursor: try QueryParameters.string("cursor", in: request)))
            },
            .admin(.post, Routes.credentialStatus) { request, context in
                let id = try context.parameters.require("credentialId")
                let body = try await JSONBodyDecoder.decode(CredentialStatusChange.self, from: request, context: context)
                return try JSONResponse.make(try await issued.setStatus(id: id, to: body.status))
            },
            .admin(.post, Routes.walletProviders) { request, context in
                let body = try await JSONBodyDecoder.decode(TrustedWalletProvider.self, from: request, context: context)
                return try JSONResponse.make(try await walletProviders.create(body, now: clock.now()), status: .created)
            },
            .admin(.get, Routes.walletProviders) { _, _ in
                try JSONResponse.make(try await walletProviders.list())
            },
            .admin(.delete, Routes.walletProvider) { _, context in
                try await walletProviders.delete(id: try context.parameters.require("id"))
                return Response(status: .noContent)
            },
        ]
    }
}
