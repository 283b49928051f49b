import Foundation
import HoldfastProtocol
import HTTPTypes
import Hummingbird
import JOSE
import OpenID4VCI

/// The OpenID4VCI 1.0 routes (docs/server-api.md "Credentials"): the metadata, token and nonce endpoints are public (the wallet
/// authenticates with its client attestation at the token endpoint, which the service checks); the credential and
/// notification endpoints are `.accessToken` routes, whose DPoP-bound access token `AccessTokenAuthenticator` checks
/// before the handler runs:
/// - `GET /.well-known/openid-credential-issuer` (OpenID4VCI 1.0 §12.2) and
///   `GET /.well-known/oauth-authorization-server` (RFC 8414), the only way the endpoints are found;
/// - `POST /v1/oauth/token`, `POST /v1/openid4vci/nonce`, `POST /v1/openid4vci/credential`,
///   `POST /v1/openid4vci/notification`.
struct OpenID4VCIController: HoldfastController {
    static let attestationHeader = HTTPField.Name(HoldfastHeaders.oauthClientAttestation)!
    static let popHeader = HTTPField.Name(HoldfastHeaders.oauthClientAttestationPoP)!
    static let dpopHeader = HTTPField.Name(HoldfastHeaders.dpop)!

    let service: OpenID4VCIService
    let configurations: CredentialConfigurationService
    let issuerName: String
    let publicURL: @Sendable () -> String
    let clock: any HoldfastClock

    /// The metadata documents may be cached for a minute (a new configuration shows within one).
    static let metadataCaching: HTTPFields = {
        var headers = HTTPFields()
        headers[.cacheControl] = "public, max-age=60"
        return headers
    }()

    var routes: [Route] {
        [
            .public(.get, IssuanceRoutes.Template.issuerMetadata) { _, _ in
                try JSONResponse.make(try await issuerMetadataDocument(), headers: Self.metadataCaching)
            },
            .public(.get, IssuanceRoutes.Template.authorizationServerMetadata) { _, _ in
                try JSONResponse.make(authorizationServerMetadataDocument(), headers: Self.metadataCaching)
            },
            .public(.post, IssuanceRoutes.Template.token) { request, context in
                try await OAuthError.answering {
                    let form = try await FormBody.decode(request, context: context)
                    let response = try await service.token(
                        form: form, attestation: request.headers[values: Self.attestationHeader],
                        pop: request.headers[values: Self.popHeader], dpop: request.headers[values: Self.dpopHeader],
                        now: clock.now())
                    return try JSONResponse.make(response, headers: JSONResponse.noStore)
                }
            },
            .public(.post, IssuanceRoutes.Template.nonce) { _, _ in
                try JSONResponse.make(service.nonce(now: clock.now()), headers: JSONResponse.noStore)
            },
            .accessToken(.post, IssuanceRoutes.Template.credential) { request, context in
                try await OAuthError.answering {
                    var request = request
                    let body = try await request.collectBody(upTo: context.maxUploadSize)
                    let response = try await service.credential(context.issuance, body: Array(body.readableBytesView), now: clock.now())
                    return try JSONResponse.make(response, headers: JSONResponse.noStore)
                }
            },
            .accessToken(.post, IssuanceRoutes.Template.notification) { request, context in
                try await OAuthError.answering {
                    var request = request
                    let body = try await request.collectBody(upTo: context.maxUploadSize)
                    try await service.notification(context.issuance, body: Array(body.readableBytesView), now: clock.now())
                    return Response(status: .noContent, headers: JSONResponse.noStore)
                }
            },
        ]
    }

    /// OpenID4VCI 1.0 §12.2.4, each configuration as `mso_mdoc` (Appendix A.2.2): COSE key binding, ES256 (COSE
    /// -7) for the MSO, `jwt` proofs with ES256, and `display` and `claims` in `credential_metadata`. The status
    /// list aggregation endpoint is draft-ietf-oauth-status-list §9.3's metadata name.
    func issuerMetadataDocument() async throws -> CredentialIssuerMetadata {
        let base = publicURL()
        var supported: [String: CredentialIssuerMetadata.CredentialConfiguration] = [:]
        for configuration in try await configurations.list().data {
            guard let id = configuration.id else { continue }
            let display = CredentialIssuerMetadata.CredentialDisplay(
                name: configuration.display.name, logo: configuration.display.logoUri.map { .init(uri: $0) },
                description: configuration.display.description, backgroundColor: configuration.display.backgroundColor,
                textColor: configuration.display.textColor)
            let claims = configuration.nameSpaces.map { spaces in
                CredentialIssuerMetadata.Claims.descriptions(spaces.sorted { $0.key < $1.key }.flatMap { space, elements in
                    elements.map { CredentialIssuerMetadata.ClaimDescription(nameSpace: space, element: $0) }
                })
            }
            supported[id] = .init(
                format: OpenID4VCIIdentifiers.msoMdocFormat, scope: id, doctype: configuration.docType,
                cryptographicBindingMethodsSupported: ["cose_key"], credentialSigningAlgValuesSupported: [.integer(-7)],
                proofTypesSupported: [OpenID4VCIIdentifiers.jwtProofType: .init(proofSigningAlgValuesSupported: ["ES256"])],
                credentialMetadata: .init(display: [display], claims: claims),
                // Also at the top level, where wallets written against the drafts before 1.0 look for it.
                display: [display],
                clientAttestation: (configuration.clientAttestation ?? .required).rawValue)
        }
        return CredentialIssuerMetadata(
            credentialIssuer: base, credentialEndpoint: base + IssuanceRoutes.Template.credential.template,
            nonceEndpoint: base + IssuanceRoutes.Template.nonce.template,
            notificationEndpoint: base + IssuanceRoutes.Template.notification.template,
            statusListAggregationEndpoint: base + StatusListRoutes.Template.lists.template,
            display: [.init(name: issuerName)], credentialConfigurationsSupported: supported)
    }

    /// RFC 8414 §2, with the pre-authorized code grant (OpenID4VCI 1.0 §12.3), client attestation
    /// (draft-ietf-oauth-attestation-based-client-auth §13) and DPoP (RFC 9449 §5.1).
    func authorizationServerMetadataDocument() -> AuthorizationServerMetadata {
        let base = publicURL()
        return AuthorizationServerMetadata(
            issuer: base, tokenEndpoint: base + IssuanceRoutes.Template.token.template,
            grantTypesSupported: [OpenID4VCIIdentifiers.preAuthorizedCodeGrant],
            preAuthorizedGrantAnonymousAccessSupported: false, tokenEndpointAuthMethodsSupported: ["attest_jwt_client_auth"],
            clientAttestationSigningAlgValuesSupported: ["ES256", "ES384"],
            clientAttestationPopSigningAlgValuesSupported: ["ES256", "ES384"],
            dpopSigningAlgValuesSupported: ["ES256"], responseTypesSupported: [])
    }
}
