import Foundation
import JOSE

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
    /// The values this version names (openapi.json lists the same): switch over `known` to decide on one.
    public enum Known: String, CaseIterable, Sendable {
        case valid, notRevocable
    }

    public let rawValue: String

    public init(rawValue: String) { self.rawValue = rawValue }

    /// The status list the MSO names says 0 (VALID, draft-ietf-oauth-status-list §7.1), read at verification.
    public static let valid = Self(.valid)
    /// The MSO names no status list (ISO/IEC 18013-5 second edition §12.3.6.3): nothing can revoke it.
    public static let notRevocable = Self(.notRevocable)
}
