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
        if `protocol` == .dcAPI {
            mode = try container.decodeIfPresent(PresentationMode.self, forKey: .mode) ?? .crossDevice
        } else {
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

/// `GET /v2/presentations/sessions/{sessionId}/result`.
public struct PresentationResult: Codable, Sendable, Hashable {
    /// One reason the presentation failed (docs/server-api.md "Verifier" lists the codes and when each is given).
    public struct Failure: Codable, Sendable, Hashable {
        public var code: PresentationFailureCode
        public var reason: String
        /// The DCQL credential query the failure is about (OpenID4VP 1.0), when it is about one.
        public var credentialQueryId: String?
        /// The input descriptor the failure is about (ISO/IEC TS 18013-7:2024: the docType), when it is about one.
        public var inputDescriptorId: String?
        /// The claim path `[namespace, element]` the failure is about, when it is about one.
        public var path: [String]?
        /// The value the wallet gave: a DeviceResponse's `status`, its `documentErrors` (docType → error code), or
        /// the error code a document's `errors` gave for a missing element.
        public var value: JSONValue?

        public init(code: PresentationFailureCode, reason: String, credentialQueryId: String? = nil, inputDescriptorId: String? = nil,
                    path: [String]? = nil, value: JSONValue? = nil) {
            self.code = code
            self.reason = reason
            self.credentialQueryId = credentialQueryId
            self.inputDescriptorId = inputDescriptorId
            self.path = path
            self.value = value
        }
    }

    /// One presented document of a verified result (docs/server-api.md "Verifier"): what it showed, who issued it and its
    /// status, never merged with another document's — two documents of one docType (DCQL `multiple: true`,
    /// OpenID4VP 1.0 §6.1, or two credential queries for one docType) are two entries.
    public struct Credential: Codable, Sendable, Hashable {
        /// Who issued the document: the certificates its MSO's `x5chain` led to (ISO/IEC 18013-5 §9.3.3).
        public struct Issuer: Codable, Sendable, Hashable {
            /// The document signer certificate's subject (RFC 4514 text).
            public var subject: String
            /// The subject of the trusted IACA the document signer's chain ends at (RFC 4514 text).
            public var iaca: String

            public init(subject: String, iaca: String) {
                self.subject = subject
                self.iaca = iaca
            }
        }

        /// The DCQL credential query the document answered (OpenID4VP 1.0 §8.1: its `vp_token` key).
        public var credentialQueryId: String?
        /// The input descriptor the document answered (ISO/IEC TS 18013-7:2024: the docType).
        public var inputDescriptorId: String?
        public var docType: String
        /// namespace → element → value, in the same forms as `PresentationResult.claims`.
        public var claims: [String: [String: JSONValue]]
        public var issuer: Issuer
        public var status: PresentedCredentialStatus

        public init(credentialQueryId: String? = nil, inputDescriptorId: String? = nil, docType: String,
                    claims: [String: [String: JSONValue]], issuer: Issuer, status: PresentedCredentialStatus) {
            self.credentialQueryId = credentialQueryId
            self.inputDescriptorId = inputDescriptorId
            self.docType = docType
            self.claims = claims
            self.issuer = issuer
            self.status = status
        }
    }

    public var status: PresentationStatus
    /// docType → namespace → element → value (a full-date as `YYYY-MM-DD`, a tdate as RFC 3339 text, bytes as
    /// `{"$type": "bytes", "value": <base64>}`), for a verified result in which each docType was presented once;
    /// absent when one was presented twice or more (`credentials` then tells them apart).
    public var claims: [String: [String: [String: JSONValue]]]?
    /// Every presented document of a verified result, one entry each, in the order of the response.
    public var credentials: [Credential]?
    public var failures: [Failure]?

    public init(status: PresentationStatus, claims: [String: [String: [String: JSONValue]]]? = nil, credentials: [Credential]? = nil,
                failures: [Failure]? = nil) {
        self.status = status
        self.claims = claims
        self.credentials = credentials
        self.failures = failures
    }

    /// A verified result of `credentials`: with `claims` by docType when no docType is among them twice.
    public static func verified(_ credentials: [Credential]) -> PresentationResult {
        var claims: [String: [String: [String: JSONValue]]]? = [:]
        for credential in credentials {
            guard claims?[credential.docType] == nil else { claims = nil; break }
            claims?[credential.docType] = credential.claims
        }
        return PresentationResult(status: .verified, claims: claims, credentials: credentials)
    }
}

/// The status of a presented document in a verified result (`PresentationResult.Credential.status`, docs/server-api.md
/// "Verifier"). String-backed so that a status a newer tenant writes still decodes.
public struct PresentedCredentialStatus: WireValueSet {
    public let rawValue: String

    public init(rawValue: String) { self.rawValue = rawValue }

    /// The status list the MSO names says 0 (VALID, draft-ietf-oauth-status-list §7.1), read at verification.
    public static let valid: Self = "valid"
    /// The MSO names no status list (ISO/IEC 18013-5 second edition §12.3.6.3): nothing can revoke it.
    public static let notRevocable: Self = "notRevocable"

    /// Every status this version writes (openapi.json lists the same).
    public static let all: [Self] = [.valid, .notRevocable]
}

/// How the wallet reaches a presentation session (docs/server-api.md "Verifier"): `cross-device` (a QR code shown to another
/// device) or `same-device` (a link, answered with a redirect to `redirectUri`). String-backed so that a value a newer
/// client sends still decodes (the tenant refuses it with a field error).
public struct PresentationMode: WireValueSet {
    public let rawValue: String

    public init(rawValue: String) { self.rawValue = rawValue }

    public static let crossDevice: Self = "cross-device"
    public static let sameDevice: Self = "same-device"

    /// Every mode this version knows (openapi.json lists the same).
    public static let all: [Self] = [.crossDevice, .sameDevice]
}

/// Where a presentation session stands (`PresentationResult.status`, docs/server-api.md "Verifier"). String-backed so that a
/// status a newer tenant writes still decodes.
public struct PresentationStatus: WireValueSet {
    public let rawValue: String

    public init(rawValue: String) { self.rawValue = rawValue }

    /// No answer yet, and the session has not expired.
    public static let pending: Self = "pending"
    /// Every check passed: `credentials` holds what each presented document showed (and `claims` the same by
    /// docType, when no docType was presented twice).
    public static let verified: Self = "verified"
    /// The answer was refused: `failures` says why.
    public static let failed: Self = "failed"
    /// The person declined (OpenID4VP 1.0 §8.5 `access_denied`).
    public static let declined: Self = "declined"
    /// No answer came before the session expired.
    public static let expired: Self = "expired"

    /// Every status this version writes (openapi.json lists the same).
    public static let all: [Self] = [.pending, .verified, .failed, .declined, .expired]
}

/// The `code` of a `PresentationResult.Failure` (docs/server-api.md "Verifier"): a code namespace of its own, beside
/// `HoldfastErrorCode`. String-backed so that a code a newer tenant writes still decodes.
public struct PresentationFailureCode: WireValueSet {
    public let rawValue: String

    public init(rawValue: String) { self.rawValue = rawValue }

    public static let issuerUntrusted: Self = "ISSUER_UNTRUSTED"
    public static let issuerSignatureInvalid: Self = "ISSUER_SIGNATURE_INVALID"
    public static let digestMismatch: Self = "DIGEST_MISMATCH"
    public static let deviceSignatureInvalid: Self = "DEVICE_SIGNATURE_INVALID"
    public static let elementNotRequested: Self = "ELEMENT_NOT_REQUESTED"
    public static let docTypeMismatch: Self = "DOCTYPE_MISMATCH"
    public static let expired: Self = "EXPIRED"
    public static let notYetValid: Self = "NOT_YET_VALID"
    public static let statusRevoked: Self = "STATUS_REVOKED"
    public static let statusSuspended: Self = "STATUS_SUSPENDED"
    public static let statusUnknown: Self = "STATUS_UNKNOWN"
    /// The 18013-7:2024 JWE's `apv` is not the session's nonce.
    public static let nonceMismatch: Self = "NONCE_MISMATCH"
    /// A vp_token entry that is not a DeviceResponse, or none at all.
    public static let malformed: Self = "MALFORMED"
    /// A required credential query (or input descriptor, or every option of a required credential set) has no
    /// presentation (OpenID4VP 1.0 §6.4.2; 18013-7:2024 B.3.1).
    public static let credentialMissing: Self = "CREDENTIAL_MISSING"
    /// A presented credential does not show a claim its query requires (OpenID4VP 1.0 §6.4.1; a field not
    /// `optional`).
    public static let claimMissing: Self = "CLAIM_MISSING"
    /// A claim is shown with a value outside its claims query's `values` (OpenID4VP 1.0 §6.3).
    public static let claimValueMismatch: Self = "CLAIM_VALUE_MISMATCH"
    /// More than one presentation for a credential query without `multiple: true` (OpenID4VP 1.0 §6.1, §8.1).
    public static let tooManyPresentations: Self = "TOO_MANY_PRESENTATIONS"
    /// A vp_token key that is not a credential query id of the session's query (OpenID4VP 1.0 §8.1).
    public static let credentialNotRequested: Self = "CREDENTIAL_NOT_REQUESTED"
    /// A DeviceResponse whose `status` is not 0 (ISO/IEC 18013-5 §8.3.2.1.2.3); the value given is in `value`.
    public static let deviceResponseStatus: Self = "DEVICE_RESPONSE_STATUS"
    /// A DeviceResponse with `documentErrors` (ISO/IEC 18013-5 §8.3.2.1.2.2); docType → error code in `value`.
    public static let documentErrors: Self = "DOCUMENT_ERRORS"
    /// A Digital Credentials API answer that verifies under none of the session's origins (OpenID4VP 1.0 B.2.6.2:
    /// the device signature covers the page's origin).
    public static let originMismatch: Self = "ORIGIN_MISMATCH"
    /// A Digital Credentials API answer for a protocol the session did not offer.
    public static let protocolMismatch: Self = "PROTOCOL_MISMATCH"
    /// A Digital Credentials API answer that does not decrypt with the session's key (the JWE of OpenID4VP 1.0 §8.3;
    /// the HPKE of ISO/IEC TS 18013-7 Annex C under the transcript of each of the session's origins).
    public static let decryptionFailed: Self = "DECRYPTION_FAILED"

    /// Every code a failure can carry (the OpenAPI document lists the same set).
    public static let all: [Self] = [
        issuerUntrusted, issuerSignatureInvalid, digestMismatch, deviceSignatureInvalid, elementNotRequested, docTypeMismatch,
        expired, notYetValid, statusRevoked, statusSuspended, statusUnknown, nonceMismatch, malformed, credentialMissing,
        claimMissing, claimValueMismatch, tooManyPresentations, credentialNotRequested, deviceResponseStatus, documentErrors,
        originMismatch, protocolMismatch, decryptionFailed,
    ]
}
