import Foundation
import HoldfastProtocol
import JOSE
import OpenID4VCI

/// A transaction code the offer asks for (OpenID4VCI 1.0 §4.1.1 `tx_code`).
public struct TransactionCodeRequirement: Codable, Sendable, Hashable {
    public var length: Int?
    /// `numeric` (the default) or `text`; a mode this SDK does not name is kept as the offer gave it.
    public var inputMode: OpenID4VCI.CredentialOffer.TransactionCode.InputMode
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

    /// Whether claiming needs a wallet attestation (docs/sdk.md "Holder: tethering is optional"): unless the
    /// authorization server accepts anonymous pre-authorized requests (OpenID4VCI 1.0 §12.3
    /// `pre-authorized_grant_anonymous_access_supported`) or every offered configuration says
    /// `client_attestation: optional` (docs/server-api.md "Credentials"), it does.
    public var requiresClientAttestation: Bool {
        if metadata.anonymousAccessSupported { return false }
        return !credentials.allSatisfy { metadata.configurations[$0.configurationId]?.clientAttestation == ClientAttestationRequirement.optional.rawValue }
    }
}

/// The parts of the Credential Issuer Metadata (OpenID4VCI 1.0 §12.2.4) and Authorization Server Metadata
/// (RFC 8414) that claiming reads.
struct IssuerMetadata: Sendable, Hashable {
    var credentialIssuer: String
    var credentialEndpoint: URL
    var nonceEndpoint: URL?
    /// OpenID4VCI 1.0 §11: where the wallet says what became of each credential; nil when the issuer has none.
    var notificationEndpoint: URL?
    var tokenEndpoint: URL
    /// The authorization server's issuer identifier: the audience of the client attestation PoP.
    var authorizationServer: String
    var statusListAggregationEndpoint: URL?
    /// RFC 8414 / OpenID4VCI 1.0 §12.3 `pre-authorized_grant_anonymous_access_supported`.
    var anonymousAccessSupported = false
    var issuerName: String?
    var configurations: [String: CredentialIssuerMetadata.CredentialConfiguration]
}

/// Reading offers and metadata (OpenID4VCI 1.0 §4.1, §12.2; RFC 8414 §3) with the `OpenID4VCI` module's types; what
/// they do not say (an https issuer, the pre-authorized code grant, an `mso_mdoc` configuration) is checked here.
struct OfferReader: Sendable {
    /// Larger documents than this are not read (metadata and offers are a few kilobytes).
    static let maximumDocumentBytes = 1 << 20

    let transport: any HTTPTransport

    func offer(uri: String) async throws(HoldfastError) -> CredentialOffer {
        let offer = try await offerObject(uri: uri)
        let issuer = offer.credentialIssuer
        guard let issuerURL = URL(string: issuer), let host = issuerURL.host, Self.isAllowed(issuerURL) else {
            throw HoldfastError(.credentialOfferInvalid, "the offer's credential_issuer is not an https URL")
        }
        guard !offer.credentialConfigurationIds.isEmpty else {
            throw HoldfastError(.credentialOfferInvalid, "the offer names no credential_configuration_ids")
        }
        guard let grant = offer.grants?.preAuthorizedCode, !grant.preAuthorizedCode.isEmpty else {
            throw HoldfastError(.credentialOfferInvalid, "the offer has no pre-authorized code grant (the only grant this SDK claims with)")
        }
        let txCode = grant.txCode.map {
            TransactionCodeRequirement(length: $0.length, inputMode: $0.inputMode ?? .numeric, description: $0.description)
        }
        let metadata = try await metadata(issuer: issuer)
        var credentials: [OfferedCredential] = []
        for id in offer.credentialConfigurationIds {
            guard let configuration = metadata.configurations[id] else {
                throw HoldfastError(.issuerMetadataInvalid, "the issuer's metadata has no configuration \(id)")
            }
            guard configuration.format == OpenID4VCIIdentifiers.msoMdocFormat, let docType = configuration.doctype else {
                throw HoldfastError(.credentialOfferInvalid, "configuration \(id) is not an mso_mdoc credential")
            }
            credentials.append(OfferedCredential(configurationId: id, docType: docType,
                                                 branding: Self.branding(configuration.effectiveDisplay),
                                                 claims: configuration.effectiveClaims?.mdocElements ?? [:]))
        }
        return CredentialOffer(issuer: issuer, issuerName: metadata.issuerName, issuerHost: host, credentials: credentials,
                               transactionCode: txCode, preAuthorizedCode: grant.preAuthorizedCode, metadata: metadata)
    }

    /// The offer, by value (`credential_offer`) or by reference (`credential_offer_uri`), §4.1.
    func offerObject(uri: String) async throws(HoldfastError) -> OpenID4VCI.CredentialOffer {
        let form: CredentialOfferURI
        do { form = try CredentialOfferURI(uri) } catch { throw HoldfastError(.credentialOfferInvalid, error.reason) }
        switch form {
        case .value(let offer):
            return offer
        case .reference(let reference):
            guard let url = URL(string: reference), Self.isAllowed(url) else {
                throw HoldfastError(.credentialOfferInvalid, "credential_offer_uri is not an https URL")
            }
            let data = try await documentData(url, code: .credentialOfferInvalid)
            do { return try OpenID4VCI.CredentialOffer.decode(data) } catch {
                throw HoldfastError(.credentialOfferInvalid, "credential_offer_uri did not answer an offer: \(error.reason)")
            }
        }
    }

    /// §12.2.2: `/.well-known/openid-credential-issuer` inserted between the host and the issuer's path; then the
    /// authorization server's RFC 8414 metadata (the first of `authorization_servers`, else the issuer itself).
    func metadata(issuer: String) async throws(HoldfastError) -> IssuerMetadata {
        guard let issuerURL = URL(string: issuer) else { throw HoldfastError(.credentialOfferInvalid, "bad issuer URL") }
        let issuerDocument = Self.wellKnown(issuerURL, IssuanceRoutes.Template.issuerMetadata)
        let issuerData = try await documentData(issuerDocument, code: .issuerMetadataInvalid)
        let root: CredentialIssuerMetadata
        do { root = try CredentialIssuerMetadata.decode(issuerData) } catch {
            throw HoldfastError(.issuerMetadataInvalid, "\(issuerDocument.absoluteString): \(error.reason)")
        }
        guard root.credentialIssuer == issuer else {
            throw HoldfastError(.issuerMetadataInvalid, "the metadata's credential_issuer is not the offer's issuer")
        }
        guard let credentialEndpoint = Self.url(root.credentialEndpoint) else {
            throw HoldfastError(.issuerMetadataInvalid, "the metadata has no https credential_endpoint")
        }
        var authorizationServer = issuerURL
        if let first = root.authorizationServers?.first {
            guard let url = URL(string: first), Self.isAllowed(url) else {
                throw HoldfastError(.issuerMetadataInvalid, "authorization_servers names a URL that is not https")
            }
            authorizationServer = url
        }
        let serverDocument = Self.wellKnown(authorizationServer, IssuanceRoutes.Template.authorizationServerMetadata)
        let serverData = try await documentData(serverDocument, code: .issuerMetadataInvalid)
        let asRoot: AuthorizationServerMetadata
        do { asRoot = try AuthorizationServerMetadata.decode(serverData) } catch {
            throw HoldfastError(.issuerMetadataInvalid, "\(serverDocument.absoluteString): \(error.reason)")
        }
        guard asRoot.issuer == authorizationServer.absoluteString, let tokenEndpoint = Self.url(asRoot.tokenEndpoint) else {
            throw HoldfastError(.issuerMetadataInvalid, "the authorization server's metadata has no token_endpoint for its issuer")
        }
        return IssuerMetadata(credentialIssuer: issuer, credentialEndpoint: credentialEndpoint, nonceEndpoint: Self.url(root.nonceEndpoint),
                              notificationEndpoint: Self.url(root.notificationEndpoint), tokenEndpoint: tokenEndpoint, authorizationServer: authorizationServer.absoluteString,
                              statusListAggregationEndpoint: Self.url(root.statusListAggregationEndpoint),
                              anonymousAccessSupported: asRoot.preAuthorizedGrantAnonymousAccessSupported ?? false,
                              issuerName: root.display?.first?.name, configurations: root.credentialConfigurationsSupported)
    }

    /// A JSON document (the status list aggregation): its value, or `code`.
    func document(_ url: URL, code: HoldfastErrorCode = .credentialOfferInvalid) async throws(HoldfastError) -> JSONValue {
        guard let value = try? JSONDecoder().decode(JSONValue.self, from: try await documentData(url, code: code)) else {
            throw HoldfastError(code, "\(url.absoluteString) did not answer JSON")
        }
        return value
    }

    /// The bytes of a document the issuer answers with 200, at most `maximumDocumentBytes` of them.
    func documentData(_ url: URL, code: HoldfastErrorCode) async throws(HoldfastError) -> Data {
        let response: TransportResponse
        do {
            response = try await transport.exchange(TransportRequest(method: "GET", url: url, headers: ["Accept": "application/json"],
                                                                     maximumResponseBytes: Self.maximumDocumentBytes))
        } catch let failure as URLSessionTransport.TransportFailure where failure.isTooLarge {
            throw HoldfastError(code, "\(url.absoluteString) answered more than \(Self.maximumDocumentBytes) bytes")
        } catch {
            throw HoldfastError(.networkError, "\(url.absoluteString) could not be fetched: \(error)")
        }
        guard response.status == 200 else {
            throw HoldfastError(code, "\(url.absoluteString) answered HTTP \(response.status)", httpStatus: response.status)
        }
        return response.body
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

    static func url(_ text: String?) -> URL? {
        guard let text, let url = URL(string: text), isAllowed(url) else { return nil }
        return url
    }

    /// The first `display` entry as the SDK's branding.
    static func branding(_ display: [CredentialIssuerMetadata.CredentialDisplay]?) -> CredentialBranding? {
        guard let first = display?.first else { return nil }
        return CredentialBranding(name: first.name, description: first.description, backgroundColor: first.backgroundColor,
                                  textColor: first.textColor, logoUri: first.logo?.uri)
    }
}

