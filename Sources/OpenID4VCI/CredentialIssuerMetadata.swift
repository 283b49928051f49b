import Foundation
import JOSE

/// OpenID4VCI 1.0 §12.2.4 — the Credential Issuer Metadata, served at `/.well-known/openid-credential-issuer`
/// (§12.2.2). Members this module does not model (encryption, batch issuance) are ignored when read.
public struct CredentialIssuerMetadata: Codable, Sendable, Hashable {
    public var credentialIssuer: String
    public var authorizationServers: [String]?
    public var credentialEndpoint: String
    public var nonceEndpoint: String?
    public var deferredCredentialEndpoint: String?
    public var notificationEndpoint: String?
    /// draft-ietf-oauth-status-list §9.3: where the issuer's status lists are listed.
    public var statusListAggregationEndpoint: String?
    public var display: [IssuerDisplay]?
    public var credentialConfigurationsSupported: [String: CredentialConfiguration]

    public init(credentialIssuer: String, authorizationServers: [String]? = nil, credentialEndpoint: String,
                nonceEndpoint: String? = nil, deferredCredentialEndpoint: String? = nil, notificationEndpoint: String? = nil,
                statusListAggregationEndpoint: String? = nil, display: [IssuerDisplay]? = nil,
                credentialConfigurationsSupported: [String: CredentialConfiguration]) {
        self.credentialIssuer = credentialIssuer
        self.authorizationServers = authorizationServers
        self.credentialEndpoint = credentialEndpoint
        self.nonceEndpoint = nonceEndpoint
        self.deferredCredentialEndpoint = deferredCredentialEndpoint
        self.notificationEndpoint = notificationEndpoint
        self.statusListAggregationEndpoint = statusListAggregationEndpoint
        self.display = display
        self.credentialConfigurationsSupported = credentialConfigurationsSupported
    }

    enum CodingKeys: String, CodingKey {
        case credentialIssuer = "credential_issuer"
        case authorizationServers = "authorization_servers"
        case credentialEndpoint = "credential_endpoint"
        case nonceEndpoint = "nonce_endpoint"
        case deferredCredentialEndpoint = "deferred_credential_endpoint"
        case notificationEndpoint = "notification_endpoint"
        case statusListAggregationEndpoint = "status_list_aggregation_endpoint"
        case display
        case credentialConfigurationsSupported = "credential_configurations_supported"
    }

    public static func decode(_ data: Data) throws(OpenID4VCIError) -> CredentialIssuerMetadata {
        try OpenID4VCIJSON.decode(CredentialIssuerMetadata.self, from: data, what: "the credential issuer metadata")
    }

    /// §12.2.4 `display`: how the issuer is shown.
    public struct IssuerDisplay: Codable, Sendable, Hashable {
        public var name: String?
        public var locale: String?
        public var logo: Logo?

        public init(name: String? = nil, locale: String? = nil, logo: Logo? = nil) {
            self.name = name
            self.locale = locale
            self.logo = logo
        }
    }

    /// §12.2.4 `logo`.
    public struct Logo: Codable, Sendable, Hashable {
        public var uri: String
        public var altText: String?

        public init(uri: String, altText: String? = nil) {
            self.uri = uri
            self.altText = altText
        }

        enum CodingKeys: String, CodingKey {
            case uri
            case altText = "alt_text"
        }
    }

    /// §12.2.4 — one entry of `credential_configurations_supported`; `doctype` is Appendix A.2.2's, for `mso_mdoc`.
    public struct CredentialConfiguration: Codable, Sendable, Hashable {
        public var format: String
        public var scope: String?
        public var doctype: String?
        public var cryptographicBindingMethodsSupported: [String]?
        /// COSE algorithm numbers for `mso_mdoc` (Appendix A.2.2), names for other formats and in drafts before 1.0.
        public var credentialSigningAlgValuesSupported: [JSONValue]?
        /// Proof type (`jwt`, `attestation`) → what the issuer accepts of it.
        public var proofTypesSupported: [String: ProofTypeMetadata]?
        public var credentialMetadata: CredentialMetadata?
        /// `display` at the configuration's top level, where drafts before 1.0 had it (1.0 moved it into
        /// `credential_metadata`).
        public var display: [CredentialDisplay]?
        /// `claims` at the top level, as drafts before 1.0 had it.
        public var claims: Claims?
        /// `client_attestation`, Holdfast's extension member (docs/server-api.md "Credentials"; §12.2.4 allows others): `required`
        /// or `optional` — whether the token endpoint demands OAuth client attestation for this configuration.
        /// Absent means required.
        public var clientAttestation: String?

        public init(format: String, scope: String? = nil, doctype: String? = nil,
                    cryptographicBindingMethodsSupported: [String]? = nil, credentialSigningAlgValuesSupported: [JSONValue]? = nil,
                    proofTypesSupported: [String: ProofTypeMetadata]? = nil, credentialMetadata: CredentialMetadata? = nil,
                    display: [CredentialDisplay]? = nil, claims: Claims? = nil, clientAttestation: String? = nil) {
            self.format = format
            self.scope = scope
            self.doctype = doctype
            self.cryptographicBindingMethodsSupported = cryptographicBindingMethodsSupported
            self.credentialSigningAlgValuesSupported = credentialSigningAlgValuesSupported
            self.proofTypesSupported = proofTypesSupported
            self.credentialMetadata = credentialMetadata
            self.display = display
            self.claims = claims
            self.clientAttestation = clientAttestation
        }

        enum CodingKeys: String, CodingKey {
            case format, scope, doctype, display, claims
            case clientAttestation = "client_attestation"
            case cryptographicBindingMethodsSupported = "cryptographic_binding_methods_supported"
            case credentialSigningAlgValuesSupported = "credential_signing_alg_values_supported"
            case proofTypesSupported = "proof_types_supported"
            case credentialMetadata = "credential_metadata"
        }

        /// The display a wallet shows: 1.0's `credential_metadata.display`, else the drafts' top-level one.
        public var effectiveDisplay: [CredentialDisplay]? { credentialMetadata?.display ?? display }
        /// The claims: 1.0's `credential_metadata.claims`, else the drafts' top-level ones.
        public var effectiveClaims: Claims? { credentialMetadata?.claims ?? claims }
    }

    /// §12.2.4 `proof_types_supported` — one proof type.
    public struct ProofTypeMetadata: Codable, Sendable, Hashable {
        public var proofSigningAlgValuesSupported: [String]

        public init(proofSigningAlgValuesSupported: [String]) {
            self.proofSigningAlgValuesSupported = proofSigningAlgValuesSupported
        }

        enum CodingKeys: String, CodingKey {
            case proofSigningAlgValuesSupported = "proof_signing_alg_values_supported"
        }
    }

    /// §12.2.4 `credential_metadata`.
    public struct CredentialMetadata: Codable, Sendable, Hashable {
        public var display: [CredentialDisplay]?
        public var claims: Claims?

        public init(display: [CredentialDisplay]? = nil, claims: Claims? = nil) {
            self.display = display
            self.claims = claims
        }
    }

    /// §12.2.4 `credential_metadata.display` — one entry.
    public struct CredentialDisplay: Codable, Sendable, Hashable {
        public var name: String
        public var locale: String?
        public var logo: Logo?
        public var description: String?
        public var backgroundColor: String?
        public var textColor: String?

        public init(name: String, locale: String? = nil, logo: Logo? = nil, description: String? = nil,
                    backgroundColor: String? = nil, textColor: String? = nil) {
            self.name = name
            self.locale = locale
            self.logo = logo
            self.description = description
            self.backgroundColor = backgroundColor
            self.textColor = textColor
        }

        enum CodingKeys: String, CodingKey {
            case name, locale, logo, description
            case backgroundColor = "background_color"
            case textColor = "text_color"
        }
    }

    /// Appendix B.2 claims description: `path` (for `mso_mdoc`, Appendix A.2.2: namespace then element).
    public struct ClaimDescription: Codable, Sendable, Hashable {
        /// Strings name members, integers index arrays, null selects every element (Appendix C).
        public var path: [JSONValue]
        public var mandatory: Bool?

        public init(path: [JSONValue], mandatory: Bool? = nil) {
            self.path = path
            self.mandatory = mandatory
        }

        /// An mDoc element's path: `[namespace, element]`.
        public init(nameSpace: String, element: String) {
            self.init(path: [.string(nameSpace), .string(element)])
        }
    }

    /// `claims`: 1.0's list of claims descriptions, or the object of namespace → element → details of the drafts
    /// before it (read only, so that a wallet still understands such issuers).
    public enum Claims: Codable, Sendable, Hashable {
        case descriptions([ClaimDescription])
        case draftNameSpaces([String: [String: JSONValue]])

        public init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let descriptions = try? container.decode([ClaimDescription].self) {
                self = .descriptions(descriptions)
            } else {
                self = .draftNameSpaces(try container.decode([String: [String: JSONValue]].self))
            }
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            switch self {
            case .descriptions(let descriptions): try container.encode(descriptions)
            case .draftNameSpaces(let spaces): try container.encode(spaces)
            }
        }

        /// Namespace → element identifiers, in the order given (the drafts' elements sorted); descriptions whose
        /// path is not two strings are not mDoc elements and are skipped.
        public var mdocElements: [String: [String]] {
            var result: [String: [String]] = [:]
            switch self {
            case .descriptions(let descriptions):
                for description in descriptions {
                    guard description.path.count == 2, let space = description.path[0].stringValue,
                          let element = description.path[1].stringValue else { continue }
                    result[space, default: []].append(element)
                }
            case .draftNameSpaces(let spaces):
                for (space, elements) in spaces { result[space] = elements.keys.sorted() }
            }
            return result
        }
    }
}
