import Foundation
import JOSE

/// OpenID4VP 1.0 §5 (RFC 9101) — the claims of a signed request object, as the verifier writes them and the wallet
/// reads them back; ISO/IEC TS 18013-7:2024 B.3.2 adds `client_id_scheme` and asks with a `presentation_definition`
/// where 1.0 asks with a `dcql_query`.
///
/// Every member is optional: the wallet reads what a verifier sent and refuses, by its own named checks, what is
/// missing. The query is carried as the JSON it is (`PresentationQuery` and `PresentationRequirements` read it): a
/// DCQL query the verifier was given goes to the wallet as given, members this project does not read included.
public struct RequestObject: Codable, Sendable, Hashable {
    /// RFC 9101 §4: the verifier's client id.
    public var iss: String?
    /// OpenID4VP 1.0 §5.8: `https://self-issued.me/v2` for a wallet found by static discovery.
    public var aud: String?
    public var iat: NumericDate?
    public var exp: NumericDate?
    /// §5.9: the client identifier, with its prefix (`ClientIdPrefix`) in 1.0, a bare DNS name in 18013-7:2024.
    public var clientId: String?
    /// 18013-7:2024 B.3.2: `x509_san_dns` for a bare client id.
    public var clientIdScheme: String?
    /// §5.1: `vp_token`.
    public var responseType: String?
    /// §8.3: `direct_post.jwt`.
    public var responseMode: String?
    /// §8.2: where the wallet posts its response.
    public var responseUri: String?
    /// §5.2: the nonce the presentation binds to.
    public var nonce: String?
    /// §5.2: the value the response must carry back.
    public var state: String?
    public var clientMetadata: ClientMetadata?
    /// §6: the DCQL query (1.0).
    public var dcqlQuery: JSONValue?
    /// 18013-7:2024 B.3.1 (DIF Presentation Exchange 2.0 §5): the presentation definition.
    public var presentationDefinition: JSONValue?

    public init(iss: String? = nil, aud: String? = nil, iat: NumericDate? = nil, exp: NumericDate? = nil, clientId: String? = nil,
                clientIdScheme: String? = nil, responseType: String? = nil, responseMode: String? = nil, responseUri: String? = nil,
                nonce: String? = nil, state: String? = nil, clientMetadata: ClientMetadata? = nil, dcqlQuery: JSONValue? = nil,
                presentationDefinition: JSONValue? = nil) {
        self.iss = iss
        self.aud = aud
        self.iat = iat
        self.exp = exp
        self.clientId = clientId
        self.clientIdScheme = clientIdScheme
        self.responseType = responseType
        self.responseMode = responseMode
        self.responseUri = responseUri
        self.nonce = nonce
        self.state = state
        self.clientMetadata = clientMetadata
        self.dcqlQuery = dcqlQuery
        self.presentationDefinition = presentationDefinition
    }

    enum CodingKeys: String, CodingKey {
        case iss, aud, iat, exp
        case clientId = "client_id"
        case clientIdScheme = "client_id_scheme"
        case responseType = "response_type"
        case responseMode = "response_mode"
        case responseUri = "response_uri"
        case nonce, state
        case clientMetadata = "client_metadata"
        case dcqlQuery = "dcql_query"
        case presentationDefinition = "presentation_definition"
    }

    /// Read leniently: a member of another type reads as absent (`LenientDecoding`).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        iss = container.lenient(String.self, .iss)
        aud = container.lenient(String.self, .aud)
        iat = container.lenient(NumericDate.self, .iat)
        exp = container.lenient(NumericDate.self, .exp)
        clientId = container.lenient(String.self, .clientId)
        clientIdScheme = container.lenient(String.self, .clientIdScheme)
        responseType = container.lenient(String.self, .responseType)
        responseMode = container.lenient(String.self, .responseMode)
        responseUri = container.lenient(String.self, .responseUri)
        nonce = container.lenient(String.self, .nonce)
        state = container.lenient(String.self, .state)
        clientMetadata = container.lenient(ClientMetadata.self, .clientMetadata)
        dcqlQuery = container.lenient(JSONValue.self, .dcqlQuery)
        presentationDefinition = container.lenient(JSONValue.self, .presentationDefinition)
    }

    /// The claims of a JWS payload that is a JSON object (parsed by the caller, which refuses what is not one).
    public init(claims: [String: JSONValue]) {
        self = OpenID4VPJSON.lenientObject(claims, as: RequestObject.self) ?? RequestObject()
    }

    /// The claims as a JWS payload.
    public func payload() throws -> Data { try JSONEncoder().encode(self) }

    /// The `id` of the presentation definition (18013-7:2024), which the response's `presentation_submission` names.
    public var presentationDefinitionId: String? { presentationDefinition?.objectValue?["id"]?.stringValue }
}
