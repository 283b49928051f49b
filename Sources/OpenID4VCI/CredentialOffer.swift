import Foundation

/// OpenID4VCI 1.0 §4.1.1 — the Credential Offer: the issuer, the credential configurations it offers, and the grants
/// the wallet may redeem.
public struct CredentialOffer: Codable, Sendable, Hashable {
    public var credentialIssuer: String
    public var credentialConfigurationIds: [String]
    public var grants: Grants?

    public init(credentialIssuer: String, credentialConfigurationIds: [String], grants: Grants? = nil) {
        self.credentialIssuer = credentialIssuer
        self.credentialConfigurationIds = credentialConfigurationIds
        self.grants = grants
    }

    enum CodingKeys: String, CodingKey {
        case credentialIssuer = "credential_issuer"
        case credentialConfigurationIds = "credential_configuration_ids"
        case grants
    }

    /// §4.1.1 `grants`: the grant types the issuer prepared, keyed by their grant type identifiers.
    public struct Grants: Codable, Sendable, Hashable {
        public var authorizationCode: AuthorizationCodeGrant?
        public var preAuthorizedCode: PreAuthorizedCodeGrant?

        public init(authorizationCode: AuthorizationCodeGrant? = nil, preAuthorizedCode: PreAuthorizedCodeGrant? = nil) {
            self.authorizationCode = authorizationCode
            self.preAuthorizedCode = preAuthorizedCode
        }

        enum CodingKeys: String, CodingKey {
            case authorizationCode = "authorization_code"
            case preAuthorizedCode = "urn:ietf:params:oauth:grant-type:pre-authorized_code"
        }
    }

    /// §4.1.1 `authorization_code`.
    public struct AuthorizationCodeGrant: Codable, Sendable, Hashable {
        public var issuerState: String?
        public var authorizationServer: String?

        public init(issuerState: String? = nil, authorizationServer: String? = nil) {
            self.issuerState = issuerState
            self.authorizationServer = authorizationServer
        }

        enum CodingKeys: String, CodingKey {
            case issuerState = "issuer_state"
            case authorizationServer = "authorization_server"
        }
    }

    /// §4.1.1 `urn:ietf:params:oauth:grant-type:pre-authorized_code`.
    public struct PreAuthorizedCodeGrant: Codable, Sendable, Hashable {
        public var preAuthorizedCode: String
        public var txCode: TransactionCode?
        public var authorizationServer: String?

        public init(preAuthorizedCode: String, txCode: TransactionCode? = nil, authorizationServer: String? = nil) {
            self.preAuthorizedCode = preAuthorizedCode
            self.txCode = txCode
            self.authorizationServer = authorizationServer
        }

        enum CodingKeys: String, CodingKey {
            case preAuthorizedCode = "pre-authorized_code"
            case txCode = "tx_code"
            case authorizationServer = "authorization_server"
        }
    }

    /// §4.1.1 `tx_code`: the transaction code the wallet asks the user for, sent as the token request's `tx_code`.
    public struct TransactionCode: Codable, Sendable, Hashable {
        /// `numeric` (the default when absent) or `text`.
        public var inputMode: InputMode?
        public var length: Int?
        public var description: String?

        public init(inputMode: InputMode? = nil, length: Int? = nil, description: String? = nil) {
            self.inputMode = inputMode
            self.length = length
            self.description = description
        }

        enum CodingKeys: String, CodingKey {
            case inputMode = "input_mode"
            case length
            case description
        }
    }

    /// Decodes an offer's JSON, naming what is missing or mistyped.
    public static func decode(_ data: Data) throws(OpenID4VCIError) -> CredentialOffer {
        try OpenID4VCIJSON.decode(CredentialOffer.self, from: data, what: "the credential offer")
    }

    /// The offer's JSON, keys sorted and slashes unescaped: by value, it is the `credential_offer` query value of
    /// `CredentialOfferURI.prefix(.credentialOffer)` (§4.1.3), percent-encoded by the writer.
    public func encoded() throws -> Data { try OpenID4VCIJSON.encode(self) }
}

/// OpenID4VCI 1.0 §4.1.3: how an offer reaches the wallet — by value (`credential_offer`, the offer's JSON) or by
/// reference (`credential_offer_uri`, an URL the wallet fetches the JSON from).
public enum CredentialOfferURI: Sendable, Hashable {
    case value(CredentialOffer)
    case reference(String)

    /// The two query parameters of §4.1.
    public enum Parameter: String, Sendable {
        case credentialOffer = "credential_offer"
        case credentialOfferURI = "credential_offer_uri"
    }

    /// `openid-credential-offer://?<parameter>=`: what precedes the percent-encoded value (§4.1.3).
    public static func prefix(_ parameter: Parameter) -> String {
        OpenID4VCIIdentifiers.credentialOfferScheme + "://?" + parameter.rawValue + "="
    }

    /// Reads an offer URI (any scheme: a wallet may be handed the offer as an `https` link too). `credential_offer`
    /// wins when both are present, as wallets did before this type.
    public init(_ uri: String) throws(OpenID4VCIError) {
        guard let components = URLComponents(string: uri) else {
            throw OpenID4VCIError(.invalidURI, "the offer is not a URI")
        }
        let items = components.queryItems ?? []
        if let value = items.first(where: { $0.name == Parameter.credentialOffer.rawValue })?.value {
            self = .value(try CredentialOffer.decode(Data(value.utf8)))
        } else if let reference = items.first(where: { $0.name == Parameter.credentialOfferURI.rawValue })?.value {
            self = .reference(reference)
        } else {
            throw OpenID4VCIError(.invalidURI, "the URI has neither credential_offer nor credential_offer_uri")
        }
    }
}
