import Foundation

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
    /// An mdoc reader's (given by the SDK's proximity reader only): a session message that does not decrypt with the
    /// session keys (ISO/IEC 18013-5 §9.1.1.5).
    public static let sessionEncryptionFailed: Self = "SESSION_ENCRYPTION_FAILED"

    /// Every code a failure can carry (the OpenAPI document lists the same set).
    public static let all: [Self] = [
        issuerUntrusted, issuerSignatureInvalid, digestMismatch, deviceSignatureInvalid, elementNotRequested, docTypeMismatch,
        expired, notYetValid, statusRevoked, statusSuspended, statusUnknown, nonceMismatch, malformed, credentialMissing,
        claimMissing, claimValueMismatch, tooManyPresentations, credentialNotRequested, deviceResponseStatus, documentErrors,
        originMismatch, protocolMismatch, decryptionFailed, sessionEncryptionFailed,
    ]
}
