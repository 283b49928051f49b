import Foundation
import HoldfastProtocol
import JOSE

/// One item of `GET /v1/presentations/verifier-cas` (docs/server-api.md "Verifier"): the CA of the tenant verifier's
/// request-signing certificates, which wallets add as a trusted verifier.
public struct VerifierCA: Codable, Sendable, Hashable {
    public var id: String
    public var certificatePem: String

    public init(id: String, certificatePem: String) {
        self.id = id
        self.certificatePem = certificatePem
    }
}

public struct VerifierCAList: Codable, Sendable, Hashable {
    public var data: [VerifierCA]

    public init(data: [VerifierCA]) { self.data = data }
}

/// `POST /v1/presentations/trusted-issuers` (docs/server-api.md "Verifier"): an IACA the verifier trusts beside the tenant's
/// own. Only `certificatePem` is sent; the rest is answered.
public struct PresentationTrustedIssuer: Codable, Sendable, Hashable {
    public var id: String?
    public var certificatePem: String
    public var commonName: String?
    public var notBefore: Date?
    public var notAfter: Date?
    public var createdAt: Date?

    public init(id: String? = nil, certificatePem: String, commonName: String? = nil, notBefore: Date? = nil,
                notAfter: Date? = nil, createdAt: Date? = nil) {
        self.id = id
        self.certificatePem = certificatePem
        self.commonName = commonName
        self.notBefore = notBefore
        self.notAfter = notAfter
        self.createdAt = createdAt
    }
}

public struct PresentationTrustedIssuerList: Codable, Sendable, Hashable {
    public var data: [PresentationTrustedIssuer]

    public init(data: [PresentationTrustedIssuer]) { self.data = data }
}

/// `POST /v2/presentations/sessions` (docs/server-api.md "Verifier").
public struct PresentationSessionRequest: Codable, Sendable, Hashable {
    /// What is asked: a docType with namespace → element → intentToRetain, or (OpenID4VP 1.0) a raw `dcql` query.
    public struct Query: Codable, Sendable, Hashable {
        public var docType: String?
        public var nameSpaces: [String: [String: Bool]]?
        public var dcql: JSONValue?

        public init(docType: String? = nil, nameSpaces: [String: [String: Bool]]? = nil, dcql: JSONValue? = nil) {
            self.docType = docType
            self.nameSpaces = nameSpaces
            self.dcql = dcql
        }
    }

    public var `protocol`: PresentationProtocol
    public var mode: PresentationMode
    public var redirectUri: String?
    /// `x509_hash` (the default) or `x509_san_dns`.
    public var clientIdPrefix: String?
    public var expiresInSeconds: Int?
    /// The https URL a wallet answers as a universal link / app link (its `authorization_endpoint`, OpenID4VP 1.0
    /// §5.1), in place of the `openid4vp://` or `mdoc-openid4vp://` scheme; `client_id` and `request_uri` are added
    /// to its query.
    public var authorizationEndpoint: String?
    public var query: Query
    /// With `protocol: "dc-api"`: the Digital Credentials API requests to make (docs/server-api.md "Digital Credentials API").
    public var dcApi: DCAPI?

    public init(protocol: PresentationProtocol, mode: PresentationMode, redirectUri: String? = nil, clientIdPrefix: String? = nil,
                expiresInSeconds: Int? = nil, authorizationEndpoint: String? = nil, query: Query, dcApi: DCAPI? = nil) {
        self.protocol = `protocol`
        self.mode = mode
        self.redirectUri = redirectUri
        self.clientIdPrefix = clientIdPrefix
        self.expiresInSeconds = expiresInSeconds
        self.authorizationEndpoint = authorizationEndpoint
        self.query = query
        self.dcApi = dcApi
    }

    enum CodingKeys: String, CodingKey {
        case `protocol`, mode, redirectUri, clientIdPrefix, expiresInSeconds, authorizationEndpoint, query, dcApi
    }

    /// `mode` is required, except for `dc-api`, where the browser reaches the wallet and there is no mode to give
    /// (it reads as `cross-device`).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        `protocol` = try container.decode(PresentationProtocol.self, forKey: .protocol)
        switch `protocol`.known {
        case .dcAPI?:
            mode = try container.decodeIfPresent(PresentationMode.self, forKey: .mode) ?? .crossDevice
        case .openID4VP?, .iso18013_7?, nil:
            mode = try container.decode(PresentationMode.self, forKey: .mode)
        }
        redirectUri = try container.decodeIfPresent(String.self, forKey: .redirectUri)
        clientIdPrefix = try container.decodeIfPresent(String.self, forKey: .clientIdPrefix)
        expiresInSeconds = try container.decodeIfPresent(Int.self, forKey: .expiresInSeconds)
        authorizationEndpoint = try container.decodeIfPresent(String.self, forKey: .authorizationEndpoint)
        query = try container.decode(Query.self, forKey: .query)
        dcApi = try container.decodeIfPresent(DCAPI.self, forKey: .dcApi)
    }
}

public struct PresentationSessionCreated: Codable, Sendable, Hashable {
    public var sessionId: String
    public var authorizationRequestUri: String
    public var requestUri: String
    public var expiresAt: Date

    public init(sessionId: String, authorizationRequestUri: String, requestUri: String, expiresAt: Date) {
        self.sessionId = sessionId
        self.authorizationRequestUri = authorizationRequestUri
        self.requestUri = requestUri
        self.expiresAt = expiresAt
    }
}

/// How the wallet reaches a presentation session (docs/server-api.md "Verifier"): `cross-device` (a QR code shown to another
/// device) or `same-device` (a link, answered with a redirect to `redirectUri`). String-backed so that a value a newer
/// client sends still decodes (the tenant refuses it with a field error).
public struct PresentationMode: WireValueSet {
    /// The values this version names (openapi.json lists the same): switch over `known` to decide on one.
    public enum Known: String, CaseIterable, Sendable {
        case crossDevice = "cross-device", sameDevice = "same-device"
    }

    public let rawValue: String

    public init(rawValue: String) { self.rawValue = rawValue }

    public static let crossDevice = Self(.crossDevice)
    public static let sameDevice = Self(.sameDevice)
}

