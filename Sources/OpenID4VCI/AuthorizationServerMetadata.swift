import Foundation

/// RFC 8414 §2 — the OAuth Authorization Server Metadata a wallet reads to find the token endpoint, with the members
/// OpenID4VCI 1.0 §12.3 (pre-authorized code), draft-ietf-oauth-attestation-based-client-auth §13 (client attestation)
/// and RFC 9449 §5.1 (DPoP) add. Served at `/.well-known/oauth-authorization-server` (RFC 8414 §3).
public struct AuthorizationServerMetadata: Codable, Sendable, Hashable {
    public var issuer: String
    public var tokenEndpoint: String?
    public var grantTypesSupported: [String]?
    public var preAuthorizedGrantAnonymousAccessSupported: Bool?
    public var tokenEndpointAuthMethodsSupported: [String]?
    public var clientAttestationSigningAlgValuesSupported: [String]?
    public var clientAttestationPopSigningAlgValuesSupported: [String]?
    public var dpopSigningAlgValuesSupported: [String]?
    public var responseTypesSupported: [String]?

    public init(issuer: String, tokenEndpoint: String? = nil, grantTypesSupported: [String]? = nil,
                preAuthorizedGrantAnonymousAccessSupported: Bool? = nil, tokenEndpointAuthMethodsSupported: [String]? = nil,
                clientAttestationSigningAlgValuesSupported: [String]? = nil,
                clientAttestationPopSigningAlgValuesSupported: [String]? = nil,
                dpopSigningAlgValuesSupported: [String]? = nil, responseTypesSupported: [String]? = nil) {
        self.issuer = issuer
        self.tokenEndpoint = tokenEndpoint
        self.grantTypesSupported = grantTypesSupported
        self.preAuthorizedGrantAnonymousAccessSupported = preAuthorizedGrantAnonymousAccessSupported
        self.tokenEndpointAuthMethodsSupported = tokenEndpointAuthMethodsSupported
        self.clientAttestationSigningAlgValuesSupported = clientAttestationSigningAlgValuesSupported
        self.clientAttestationPopSigningAlgValuesSupported = clientAttestationPopSigningAlgValuesSupported
        self.dpopSigningAlgValuesSupported = dpopSigningAlgValuesSupported
        self.responseTypesSupported = responseTypesSupported
    }

    enum CodingKeys: String, CodingKey {
        case issuer
        case tokenEndpoint = "token_endpoint"
        case grantTypesSupported = "grant_types_supported"
        case preAuthorizedGrantAnonymousAccessSupported = "pre-authorized_grant_anonymous_access_supported"
        case tokenEndpointAuthMethodsSupported = "token_endpoint_auth_methods_supported"
        case clientAttestationSigningAlgValuesSupported = "client_attestation_signing_alg_values_supported"
        case clientAttestationPopSigningAlgValuesSupported = "client_attestation_pop_signing_alg_values_supported"
        case dpopSigningAlgValuesSupported = "dpop_signing_alg_values_supported"
        case responseTypesSupported = "response_types_supported"
    }

    public static func decode(_ data: Data) throws(OpenID4VCIError) -> AuthorizationServerMetadata {
        try OpenID4VCIJSON.decode(AuthorizationServerMetadata.self, from: data, what: "the authorization server metadata")
    }
}
