import Foundation
import HoldfastProtocol
import JOSE

/// How a credential is shown (OpenID4VCI 1.0 §12.2.4 `display`, from the issuer's metadata at claim time).
public typealias CredentialBranding = CredentialDisplay

/// Who issued a stored credential.
public struct CredentialIssuerInfo: Codable, Sendable, Hashable {
    /// The document signer certificate's common name.
    public var commonName: String?
    /// The trusted issuer certificate (IACA) it chains to; nil when it was kept untrusted (docs/sdk.md "Holder:
    /// credentials").
    public var trustedIssuerCertificateId: String?
    /// The OpenID4VCI `credential_issuer` it was claimed from.
    public var credentialIssuer: String?
}

/// The MSO's validity window (ISO/IEC 18013-5 §9.1.2.4).
public struct CredentialValidityInfo: Codable, Sendable, Hashable {
    public var validFrom: Date
    public var validUntil: Date
}

/// What a stored credential is, without its claim values (`getCredentials()`).
public struct MobileCredentialMetadata: Codable, Sendable, Hashable {
    public var id: String
    public var docType: String
    public var branding: CredentialBranding?
    /// Namespace → element identifiers the credential carries.
    public var claims: [String: [String]]
    public var issuerInfo: CredentialIssuerInfo
    public var validityInfo: CredentialValidityInfo
    /// Where the credential's status is published (its MSO's `status.status_list`), in the shape the tenant's
    /// issued-credential record shows (`statusList {uri, idx}`), so that the two can be matched; nil for a credential
    /// without a status reference.
    public var statusList: CredentialStatusListEntry?
}

/// A credential's entry in a status list (draft-ietf-oauth-status-list §6.3 `status_list {idx, uri}`).
public struct CredentialStatusListEntry: Codable, Sendable, Hashable {
    public var uri: String
    public var idx: UInt64

    public init(uri: String, idx: UInt64) {
        self.uri = uri
        self.idx = idx
    }
}

/// The outcome of `refreshStatus(credentialId:)` for one credential: whether its status list was fetched and
/// entered the cache now, why not when it was not, and the credential verified with the list then cached.
public struct CredentialStatusRefresh: Sendable, Hashable {
    public var credential: MobileCredential
    public var fetched: Bool
    public var failure: String?
}

/// Why a credential does not verify now (docs/sdk.md "Holder: credentials").
public enum CredentialFailureType: String, Codable, Sendable, Hashable, CaseIterable {
    case statusRevoked
    case statusSuspended
    case statusUnknown
    case expired
    case notYetValid
    case untrustedIssuer
    case invalidSignature
    case digestMismatch
    /// The stored bytes no longer decode as an mDoc.
    case malformed
}

/// The outcome of verifying a stored credential now: the issuer's signature and chain, the digests, the validity
/// window and the status.
public struct CredentialVerificationResult: Codable, Sendable, Hashable {
    public var verified: Bool
    public var failureType: CredentialFailureType?

    public static let success = CredentialVerificationResult(verified: true, failureType: nil)
    public static func failure(_ type: CredentialFailureType) -> CredentialVerificationResult {
        CredentialVerificationResult(verified: false, failureType: type)
    }
}

/// A stored credential with its claim values (`getCredential(credentialId:skipStatusCheck:)`).
public struct MobileCredential: Sendable, Hashable {
    public var metadata: MobileCredentialMetadata
    /// Namespace → element identifier → value, as JSON (docs/sdk.md "Holder: credentials"): plain values as themselves,
    /// a full-date (tag 1004) as its `"YYYY-MM-DD"` text, a tdate (tag 0) as its RFC 3339 text, and bytes as
    /// `{"$type": "bytes", "value": <base64>}`.
    public var claims: [String: [String: JSONValue]]
    public var verificationResult: CredentialVerificationResult
    /// The status found, for a credential that carries a status reference.
    public var status: CredentialStatus?
    /// When the status was last established online: when the status list token that says it was fetched (docs/sdk.md
    /// "Holder: status"); nil for a credential without a status reference, or when no token was ever fetched.
    public var statusCheckedAt: Date?
    /// The IssuerSigned CBOR as issued.
    public var issuerSigned: [UInt8]

    public var id: String { metadata.id }
    public var docType: String { metadata.docType }
}
