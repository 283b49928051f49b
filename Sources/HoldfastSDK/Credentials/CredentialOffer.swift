import Foundation
import HoldfastProtocol
import JOSE

/// A transaction code the offer asks for (OpenID4VCI 1.0 §4.1.1 `tx_code`).
public struct TransactionCodeRequirement: Codable, Sendable, Hashable {
    public var length: Int?
    /// `numeric` (the default) or `text`.
    public var inputMode: String
    public var description: String?
}

/// One credential an offer will issue, as the issuer's metadata describes it.
public struct OfferedCredential: Sendable, Hashable {
    public var configurationId: String
    public var docType: String
    public var branding: CredentialBranding?
    /// Namespace → element identifiers, from the metadata's `claims` (empty when the issuer names none).
    public var claims: [String: [String]]
}

/// What an offer holds, shown before the user consents (`retrieveCredentialOffer(uri:)`), and what claiming it
/// needs.
public struct CredentialOffer: Sendable, Hashable {
    /// The `credential_issuer` URL.
    public var issuer: String
    /// The issuer's display name from its metadata, when it has one.
    public var issuerName: String?
    /// The issuer URL's host.
    public var issuerHost: String
    public var credentials: [OfferedCredential]
    public var transactionCode: TransactionCodeRequirement?

    var preAuthorizedCode: String
    var metadata: IssuerMetadata
}

/// The parts of the Credential Issuer Metadata (OpenID4VCI 1.0 §12.2.4) and Authorization Server Metadata
/// (RFC 8414) that claiming reads.
struct IssuerMetadata: Sendable, Hashable {
    var credentialIssuer: String
    var credentialEndpoint: URL
    var nonceEndpoint: URL?
    var tokenEndpoint: URL
    /// The authorization server's issuer identifier: the audience of the client attestation PoP.
    var authorizationServer: String
    var statusListAggregationEndpoint: URL?
    var issuerName: String?
    var configurations: [String: JSONValue]
}

/// Reading offers and metadata (OpenID4VCI 1.0 §4.1, §12.2; RFC 8414 §3).
struct OfferReader: Sendable {
    static let preAuthorizedGrant = OpenID4VCIIdentifiers.preAuthorizedCodeGrant
    /// Larger documents than this are not read (metadata and offers are a few kilobytes).
    static let maximumDocumentBytes = 1 << 20

    let transport: any HTTPTransport

    func offer(uri: String) async throws(HoldfastError) -> CredentialOffer {
        let object = try await offerObject(uri: uri)
        guard let issuer = object["credential_issuer"]?.stringValue, let issuerURL = URL(string: issuer),
              let host = issuerURL.host, Self.isAllowed(issuerURL) else {
            throw HoldfastError(.credentialOfferInvalid, "the offer's credential_issuer is not an https URL")
        }
        guard case .array(let ids)? = object["credential_configuration_ids"], !ids.isEmpty,
              case let idStrings = ids.compactMap(\.stringValue), idStrings.count == ids.count else {
            throw HoldfastError(.credentialOfferInvalid, "the offer names no credential_configuration_ids")
        }
        guard let grant = object["grants"]?.objectValue?[Self.preAuthorizedGrant]?.objectValue,
              let code = grant["pre-authorized_code"]?.stringValue, !code.isEmpty else {
            throw HoldfastError(.credentialOfferInvalid, "the offer has no pre-authorized code grant (the only grant this SDK claims with)")
        }
        var txCode: TransactionCodeRequirement?
        if let tx = grant["tx_code"]?.objectValue {
            txCode = TransactionCodeRequirement(length: tx["length"]?.doubleValue.map { Int($0) },
                                                inputMode: tx["input_mode"]?.stringValue ?? "numeric",
                                                description: tx["description"]?.stringValue)
        }
        let metadata = try await metadata(issuer: issuer)
        var credentials: [OfferedCredential] = []
        for id in idStrings {
            guard let configuration = metadata.configurations[id]?.objectValue else {
                throw HoldfastError(.issuerMetadataInvalid, "the issuer's metadata has no configuration \(id)")
            }
            guard configuration["format"]?.stringValue == "mso_mdoc", let docType = configuration["doctype"]?.stringValue else {
                throw HoldfastError(.credentialOfferInvalid, "configuration \(id) is not an mso_mdoc credential")
            }
            let credentialMetadata = configuration["credential_metadata"]?.objectValue
            let display = credentialMetadata?["display"] ?? configuration["display"]
            let claims = credentialMetadata?["claims"] ?? configuration["claims"]
            credentials.append(OfferedCredential(configurationId: id, docType: docType, branding: Self.branding(display),
                                                 claims: Self.claimPaths(claims)))
        }
        return CredentialOffer(issuer: issuer, issuerName: metadata.issuerName, issuerHost: host, credentials: credentials,
                               transactionCode: txCode, preAuthorizedCode: code, metadata: metadata)
    }

    /// The offer JSON, by value (`credential_offer`) or by reference (`credential_offer_uri`), §4.1.
    func offerObject(uri: String) async throws(HoldfastError) -> [String: JSONValue] {
        guard let components = URLComponents(string: uri) else {
            throw HoldfastError(.credentialOfferInvalid, "the offer is not a URI")
        }
        let items = components.queryItems ?? []
        if let value = items.first(where: { $0.name == "credential_offer" })?.value {
            guard let object = (try? JSONDecoder().decode(JSONValue.self, from: Data(value.utf8)))?.objectValue else {
                throw HoldfastError(.credentialOfferInvalid, "credential_offer is not a JSON object")
            }
            return object
        }
        if let reference = items.first(where: { $0.name == "credential_offer_uri" })?.value {
            guard let url = URL(string: reference), Self.isAllowed(url) else {
                throw HoldfastError(.credentialOfferInvalid, "credential_offer_uri is not an https URL")
            }
            guard let object = try await document(url).objectValue else {
                throw HoldfastError(.credentialOfferInvalid, "credential_offer_uri did not answer a JSON object")
            }
            return object
        }
        throw HoldfastError(.credentialOfferInvalid, "the URI has neither credential_offer nor credential_offer_uri")
    }

    /// §12.2.2: `/.well-known/openid-credential-issuer` inserted between the host and the issuer's path; then the
    /// authorization server's RFC 8414 metadata (the first of `authorization_servers`, else the issuer itself).
    func metadata(issuer: String) async throws(HoldfastError) -> IssuerMetadata {
        guard let issuerURL = URL(string: issuer) else { throw HoldfastError(.credentialOfferInvalid, "bad issuer URL") }
        let object = try await document(Self.wellKnown(issuerURL, IssuanceRoutes.Template.issuerMetadata), code: .issuerMetadataInvalid)
        guard let root = object.objectValue, root["credential_issuer"]?.stringValue == issuer else {
            throw HoldfastError(.issuerMetadataInvalid, "the metadata's credential_issuer is not the offer's issuer")
        }
        guard let credentialEndpoint = Self.url(root["credential_endpoint"]) else {
            throw HoldfastError(.issuerMetadataInvalid, "the metadata has no https credential_endpoint")
        }
        guard let configurations = root["credential_configurations_supported"]?.objectValue else {
            throw HoldfastError(.issuerMetadataInvalid, "the metadata has no credential_configurations_supported")
        }
        var authorizationServer = issuerURL
        if case .array(let servers)? = root["authorization_servers"], let first = servers.first?.stringValue {
            guard let url = URL(string: first), Self.isAllowed(url) else {
                throw HoldfastError(.issuerMetadataInvalid, "authorization_servers names a URL that is not https")
            }
            authorizationServer = url
        }
        let asMetadata = try await document(Self.wellKnown(authorizationServer, IssuanceRoutes.Template.authorizationServerMetadata), code: .issuerMetadataInvalid)
        guard let asRoot = asMetadata.objectValue, asRoot["issuer"]?.stringValue == authorizationServer.absoluteString,
              let tokenEndpoint = Self.url(asRoot["token_endpoint"]) else {
            throw HoldfastError(.issuerMetadataInvalid, "the authorization server's metadata has no token_endpoint for its issuer")
        }
        var name: String?
        if case .array(let displays)? = root["display"] { name = displays.first?.objectValue?["name"]?.stringValue }
        return IssuerMetadata(credentialIssuer: issuer, credentialEndpoint: credentialEndpoint, nonceEndpoint: Self.url(root["nonce_endpoint"]),
                              tokenEndpoint: tokenEndpoint, authorizationServer: authorizationServer.absoluteString,
                              statusListAggregationEndpoint: Self.url(root["status_list_aggregation_endpoint"]),
                              issuerName: name, configurations: configurations)
    }

    func document(_ url: URL, code: HoldfastErrorCode = .credentialOfferInvalid) async throws(HoldfastError) -> JSONValue {
        let response: TransportResponse
        do {
            response = try await transport.send(TransportRequest(method: "GET", url: url, headers: ["Accept": "application/json"]))
        } catch {
            throw HoldfastError(.networkError, "\(url.absoluteString) could not be fetched: \(error)")
        }
        guard response.status == 200 else {
            throw HoldfastError(code, "\(url.absoluteString) answered HTTP \(response.status)", httpStatus: response.status)
        }
        guard response.body.count <= Self.maximumDocumentBytes,
              let value = try? JSONDecoder().decode(JSONValue.self, from: response.body) else {
            throw HoldfastError(code, "\(url.absoluteString) did not answer JSON")
        }
        return value
    }

    /// `document` (a `/.well-known/…` template) inserted between the host and `base`'s path (RFC 8615, RFC 8414 §3.1).
    static func wellKnown(_ base: URL, _ document: RouteTemplate) -> URL {
        var components = URLComponents(url: base, resolvingAgainstBaseURL: false) ?? URLComponents()
        let path = components.path == "/" ? "" : components.path
        components.path = document.template + path
        components.query = nil
        components.fragment = nil
        return components.url ?? base
    }

    /// https, or http to a loopback host (a tenant on the same machine).
    static func isAllowed(_ url: URL) -> Bool {
        StatusListCache.fetchableURL(url.absoluteString) != nil
    }

    static func url(_ value: JSONValue?) -> URL? {
        guard let text = value?.stringValue, let url = URL(string: text), isAllowed(url) else { return nil }
        return url
    }

    static func branding(_ display: JSONValue?) -> CredentialBranding? {
        guard case .array(let entries)? = display, let first = entries.first?.objectValue,
              let name = first["name"]?.stringValue else { return nil }
        return CredentialBranding(name: name, description: first["description"]?.stringValue,
                                  backgroundColor: first["background_color"]?.stringValue,
                                  textColor: first["text_color"]?.stringValue,
                                  logoUri: first["logo"]?.objectValue?["uri"]?.stringValue)
    }

    /// 1.0 Appendix A.2.2: `claims` is a list of `{path: [namespace, element]}`; drafts before it had an object of
    /// namespace → element → details.
    static func claimPaths(_ claims: JSONValue?) -> [String: [String]] {
        var result: [String: [String]] = [:]
        switch claims {
        case .array(let entries)?:
            for entry in entries {
                guard case .array(let path)? = entry.objectValue?["path"], path.count == 2,
                      let space = path[0].stringValue, let element = path[1].stringValue else { continue }
                result[space, default: []].append(element)
            }
        case .object(let spaces)?:
            for (space, elements) in spaces { result[space] = elements.objectValue.map { $0.keys.sorted() } ?? [] }
        default:
            break
        }
        return result
    }
}
