import Foundation
import HoldfastProtocol
import Hummingbird
import JOSE
import OpenID4VCI

/// What an `.accessToken` route's request authenticated with (docs/server-api.md "Credentials"): the offer its access token
/// was issued for, and the DPoP proof of the token's key, whose `jti` the handler spends once it has read the request.
public struct AuthorizedIssuance: Sendable {
    let authorized: CredentialOfferService.Authorized
    let proof: DPoPVerifiedProof
}

/// Authenticates the `.accessToken` routes (OpenID4VCI 1.0 §8 and §11; RFC 6750 §2.1, RFC 9449 §7.1), before their
/// handler runs, in this order: an `Authorization: DPoP <token>` header with a live access token (`invalid_token`);
/// a DPoP proof of the token's key for this request with its `ath` (`invalid_dpop_proof`); then what the token
/// endpoint checked of the client, checked again while the token lives (`invalid_token`): the instance it was issued
/// to still registered, not revoked, of an application with the token's client id; a token issued without client
/// attestation still for a configuration whose `clientAttestation` is `optional`. A refusal is answered as OAuth
/// answers it (`OAuthErrorResponse`, 401 with `WWW-Authenticate: DPoP`).
struct AccessTokenAuthenticator: RouterMiddleware {
    typealias Context = HoldfastRequestContext

    let offers: CredentialOfferService
    let configurations: CredentialConfigurationService
    let instances: InstanceStore
    let dpop: IssuanceDPoP
    let clock: any HoldfastClock

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        try await OAuthError.answering {
            var context = context
            context.identity = .accessToken(try await authorize(request, now: clock.now()))
            return try await next(request, context)
        }
    }

    func authorize(_ request: Request, now: Date) async throws -> AuthorizedIssuance {
        let authorization = request.headers[values: .authorization]
        guard authorization.count == 1, authorization[0].utf8.count > 5, authorization[0].prefix(5).lowercased() == "dpop ",
              case let token = String(authorization[0].dropFirst(5)).trimmingCharacters(in: .whitespaces), !token.isEmpty else {
            throw OAuthError.invalidToken("an Authorization: DPoP <access token> header is required")
        }
        let authorized = try await offers.authorize(accessToken: token, now: now)
        let proof = try dpop.verify(request.headers[values: OpenID4VCIController.dpopHeader], method: request.method.rawValue,
                                    accessToken: token, expectedThumbprint: authorized.dpopThumbprint, path: request.uri.path,
                                    resource: true, now: now)
        try await recheckClient(authorized)
        return AuthorizedIssuance(authorized: authorized, proof: proof)
    }

    /// docs/server-api.md "Credentials": the token endpoint's checks of the client, again. A configuration that no longer exists is
    /// left to the credential request (`credential_request_denied`).
    private func recheckClient(_ authorized: CredentialOfferService.Authorized) async throws {
        if let instanceID = authorized.instanceID {
            guard let (instance, application) = try await instances.getWithApplication(id: instanceID),
                  instance.revokedAt == nil, instance.status == .registered, let application,
                  application.clientId == authorized.clientID else {
                throw OAuthError.invalidToken("the instance the access token was issued to is revoked or no longer approved")
            }
        }
        if authorized.clientID == nil, let configuration = try await configurations.find(id: authorized.configurationID),
           configuration.clientAttestation?.waivesAttestation != true {
            throw OAuthError.invalidToken(
                "the credential configuration requires client attestation now, and the access token was issued without it")
        }
    }
}
