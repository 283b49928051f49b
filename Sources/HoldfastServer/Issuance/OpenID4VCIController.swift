import Foundation
import HoldfastProtocol
import HTTPTypes
import Hummingbird
import JOSE

/// The OpenID4VCI 1.0 routes (README "Credentials"), all public — the wallet authenticates with its client
/// attestation at the token endpoint and with its DPoP-bound access token at the credential endpoint:
/// - `GET /.well-known/openid-credential-issuer` (OpenID4VCI 1.0 §12.2) and
///   `GET /.well-known/oauth-authorization-server` (RFC 8414), the only way the endpoints are found;
/// - `POST /v1/oauth/token`, `POST /v1/openid4vci/nonce`, `POST /v1/openid4vci/credential`.
struct OpenID4VCIController: HoldfastController {
    static let attestationHeader = HTTPField.Name(HoldfastHeaders.oauthClientAttestation)!
    static let popHeader = HTTPField.Name(HoldfastHeaders.oauthClientAttestationPoP)!
    static let dpopHeader = HTTPField.Name(HoldfastHeaders.dpop)!

    let service: OpenID4VCIService
    let configurations: CredentialConfigurationService
    let issuerName: String
    let publicURL: @Sendable () -> String
    let clock: any HoldfastClock

    var routes: [Route] {
        [
            .public(.get, IssuanceRoutes.Template.issuerMetadata) { _, _ in
                try Self.json(try await issuerMetadataDocument(), cache: "public, max-age=60")
            },
            .public(.get, IssuanceRoutes.Template.authorizationServerMetadata) { _, _ in
                try Self.json(authorizationServerMetadataDocument(), cache: "public, max-age=60")
            },
            .public(.post, IssuanceRoutes.Template.token) { request, context in
                try await OAuthError.answering {
                    let form = try await Self.form(request, context: context)
                    let response = try await service.token(
                        form: form, attestation: request.headers[values: Self.attestationHeader],
                        pop: request.headers[values: Self.popHeader], dpop: request.headers[values: Self.dpopHeader],
                        now: clock.now())
                    return try JSONResponse.make(response, headers: JSONResponse.noStore)
                }
            },
            .public(.post, IssuanceRoutes.Template.nonce) { _, _ in
                try JSONResponse.make(["c_nonce": service.nonce(now: clock.now())], headers: JSONResponse.noStore)
            },
            .public(.post, IssuanceRoutes.Template.credential) { request, context in
                try await OAuthError.answering {
                    var request = request
                    let body = try await request.collectBody(upTo: context.maxUploadSize)
                    let response = try await service.credential(
                        authorization: request.headers[values: .authorization],
                        dpop: request.headers[values: Self.dpopHeader], body: Array(body.readableBytesView),
                        now: clock.now())
                    return try JSONResponse.make(response, headers: JSONResponse.noStore)
                }
            },
        ]
    }

    /// OpenID4VCI 1.0 §12.2.4, each configuration as `mso_mdoc` (Appendix A.2.2): COSE key binding, ES256 (COSE
    /// -7) for the MSO, `jwt` proofs with ES256, and `display` and `claims` in `credential_metadata`. The status
    /// list aggregation endpoint is draft-ietf-oauth-status-list §9.3's metadata name.
    func issuerMetadataDocument() async throws -> JSONValue {
        let base = publicURL()
        var supported: [String: JSONValue] = [:]
        for configuration in try await configurations.list().data {
            guard let id = configuration.id else { continue }
            var display: [String: JSONValue] = ["name": .string(configuration.display.name)]
            if let value = configuration.display.description { display["description"] = .string(value) }
            if let value = configuration.display.backgroundColor { display["background_color"] = .string(value) }
            if let value = configuration.display.textColor { display["text_color"] = .string(value) }
            if let value = configuration.display.logoUri { display["logo"] = .object(["uri": .string(value)]) }
            var metadata: [String: JSONValue] = ["display": .array([.object(display)])]
            if let spaces = configuration.nameSpaces {
                metadata["claims"] = .array(spaces.sorted { $0.key < $1.key }.flatMap { space, elements in
                    elements.map { JSONValue.object(["path": .array([.string(space), .string($0)])]) }
                })
            }
            supported[id] = .object([
                "format": .string("mso_mdoc"),
                "doctype": .string(configuration.docType),
                "scope": .string(id),
                "cryptographic_binding_methods_supported": .array([.string("cose_key")]),
                "credential_signing_alg_values_supported": .array([.integer(-7)]),
                "proof_types_supported": .object(["jwt": .object([
                    "proof_signing_alg_values_supported": .array([.string("ES256")]),
                ])]),
                "credential_metadata": .object(metadata),
                // Also at the top level, where wallets written against the drafts before 1.0 look for it.
                "display": .array([.object(display)]),
            ])
        }
        return .object([
            "credential_issuer": .string(base),
            "credential_endpoint": .string(base + IssuanceRoutes.Template.credential.template),
            "nonce_endpoint": .string(base + IssuanceRoutes.Template.nonce.template),
            "status_list_aggregation_endpoint": .string(base + StatusListRoutes.Template.lists.template),
            "display": .array([.object(["name": .string(issuerName)])]),
            "credential_configurations_supported": .object(supported),
        ])
    }

    /// RFC 8414 §2, with the pre-authorized code grant (OpenID4VCI 1.0 §12.3), client attestation
    /// (draft-ietf-oauth-attestation-based-client-auth §13) and DPoP (RFC 9449 §5.1).
    func authorizationServerMetadataDocument() -> JSONValue {
        let base = publicURL()
        return .object([
            "issuer": .string(base),
            "token_endpoint": .string(base + IssuanceRoutes.Template.token.template),
            "grant_types_supported": .array([.string(CredentialOfferService.preAuthorizedGrant)]),
            "pre-authorized_grant_anonymous_access_supported": .bool(false),
            "token_endpoint_auth_methods_supported": .array([.string("attest_jwt_client_auth")]),
            "client_attestation_signing_alg_values_supported": .array([.string("ES256"), .string("ES384")]),
            "client_attestation_pop_signing_alg_values_supported": .array([.string("ES256"), .string("ES384")]),
            "dpop_signing_alg_values_supported": .array([.string("ES256")]),
            "response_types_supported": .array([]),
        ])
    }

    static func json(_ value: JSONValue, cache: String) throws -> Response {
        var headers = HTTPFields()
        headers[.cacheControl] = cache
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        headers[.contentType] = "application/json"
        return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: try encoder.encode(value))))
    }

    /// An `application/x-www-form-urlencoded` body (RFC 6749 §4.1.3, Appendix B), name → values.
    static func form(_ request: Request, context: some HoldfastContext) async throws -> [String: [String]] {
        let mediaType = request.headers[.contentType]?.split(separator: ";").first
            .map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
        guard mediaType == "application/x-www-form-urlencoded" else {
            throw OAuthError.invalidRequest("the body must be application/x-www-form-urlencoded")
        }
        var request = request
        let body = try await request.collectBody(upTo: context.maxUploadSize)
        return try parseForm(String(decoding: body.readableBytesView, as: UTF8.self))
    }

    static func parseForm(_ text: String) throws -> [String: [String]] {
        var result: [String: [String]] = [:]
        for pair in text.split(separator: "&", omittingEmptySubsequences: true) {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            func decode(_ part: Substring) throws -> String {
                guard let value = part.replacingOccurrences(of: "+", with: " ").removingPercentEncoding else {
                    throw OAuthError.invalidRequest("the form body is not percent-encoded correctly")
                }
                return value
            }
            let name = try decode(parts[0])
            result[name, default: []].append(parts.count > 1 ? try decode(parts[1]) : "")
        }
        return result
    }
}
