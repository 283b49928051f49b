import Foundation

/// Where a presentation session stands (`PresentationResult.status`, docs/server-api.md "Verifier"). String-backed so that a
/// status a newer tenant writes still decodes.
public struct PresentationStatus: WireValueSet {
    /// The values this version names (openapi.json lists the same): switch over `known` to decide on one.
    public enum Known: String, CaseIterable, Sendable {
        case pending, verified, failed, declined, expired
    }

    public let rawValue: String

    public init(rawValue: String) { self.rawValue = rawValue }

    /// No answer yet, and the session has not expired.
    public static let pending = Self(.pending)
    /// Every check passed: `credentials` holds what each presented document showed (and `claims` the same by
    /// docType, when no docType was presented twice).
    public static let verified = Self(.verified)
    /// The answer was refused: `failures` says why.
    public static let failed = Self(.failed)
    /// The person declined (OpenID4VP 1.0 §8.5 `access_denied`).
    public static let declined = Self(.declined)
    /// No answer came before the session expired.
    public static let expired = Self(.expired)
}

/// The `code` of a `PresentationResult.Failure` (docs/server-api.md "Verifier"): a code namespace of its own, beside
/// `HoldfastErrorCode`. String-backed so that a code a newer tenant writes still decodes.
public struct PresentationFailureCode: WireValueSet {
    /// The values this version names (openapi.json lists the same): switch over `known` to decide on one.
    public enum Known: String, CaseIterable, Sendable {
        case issuerUntrusted = "ISSUER_UNTRUSTED", issuerSignatureInvalid = "ISSUER_SIGNATURE_INVALID"
        case digestMismatch = "DIGEST_MISMATCH", deviceSignatureInvalid = "DEVICE_SIGNATURE_INVALID"
        case elementNotRequested = "ELEMENT_NOT_REQUESTED", docTypeMismatch = "DOCTYPE_MISMATCH", expired = "EXPIRED"
        case notYetValid = "NOT_YET_VALID", statusRevoked = "STATUS_REVOKED", statusSuspended = "STATUS_SUSPENDED"
        case statusUnknown = "STATUS_UNKNOWN", nonceMismatch = "NONCE_MISMATCH", malformed = "MALFORMED"
        case credentialMissing = "CREDENTIAL_MISSING", claimMissing = "CLAIM_MISSING"
        case claimValueMismatch = "CLAIM_VALUE_MISMATCH", tooManyPresentations = "TOO_MANY_PRESENTATIONS"
        case credentialNotRequested = "CREDENTIAL_NOT_REQUESTED", deviceResponseStatus = "DEVICE_RESPONSE_STATUS"
        case documentErrors = "DOCUMENT_ERRORS", originMismatch = "ORIGIN_MISMATCH"
        case protocolMismatch = "PROTOCOL_MISMATCH", decryptionFailed = "DECRYPTION_FAILED"
        case sessionEncryptionFailed = "SESSION_ENCRYPTION_FAILED"
    }

    public let rawValue: String

    public init(rawValue: String) { self.rawValue = rawValue }

    public static let issuerUntrusted = Self(.issuerUntrusted)
    public static let issuerSignatureInvalid = Self(.issuerSignatureInvalid)
    public static let digestMismatch = Self(.digestMismatch)
    public static let deviceSignatureInvalid = Self(.deviceSignatureInvalid)
    public static let elementNotRequested = Self(.elementNotRequested)
    public static let docTypeMismatch = Self(.docTypeMismatch)
    public static let expired = Self(.expired)
    public static let notYetValid = Self(.notYetValid)
    public static let statusRevoked = Self(.statusRevoked)
    public static let statusSuspended = Self(.statusSuspended)
    public static let statusUnknown = Self(.statusUnknown)
    /// The 18013-7:2024 JWE's `apv` is not the session's nonce.
    public static let nonceMismatch = Self(.nonceMismatch)
    /// A vp_token entry that is not a DeviceResponse, or none at all.
    public static let malformed = Self(.malformed)
    /// A required credential query (or input descriptor, or every option of a required credential set) has no
    /// presentation (OpenID4VP 1.0 §6.4.2; 18013-7:2024 B.3.1).
    public static let credentialMissing = Self(.credentialMissing)
    /// A presented credential does not show a claim its query requires (OpenID4VP 1.0 §6.4.1; a field not
    /// `optional`).
    public static let claimMissing = Self(.claimMissing)
    /// A claim is shown with a value outside its claims query's `values` (OpenID4VP 1.0 §6.3).
    public static let claimValueMismatch = Self(.claimValueMismatch)
    /// More than one presentation for a credential query without `multiple: true` (OpenID4VP 1.0 §6.1, §8.1).
    public static let tooManyPresentations = Self(.tooManyPresentations)
    /// A vp_token key that is not a credential query id of the session's query (OpenID4VP 1.0 §8.1).
    public static let credentialNotRequested = Self(.credentialNotRequested)
    /// A DeviceResponse whose `status` is not 0 (ISO/IEC 18013-5 §8.3.2.1.2.3); the value given is in `value`.
    public static let deviceResponseStatus = Self(.deviceResponseStatus)
    /// A DeviceResponse with `documentErrors` (ISO/IEC 18013-5 §8.3.2.1.2.2); docType → error code in `value`.
    public static let documentErrors = Self(.documentErrors)
    /// A Digital Credentials API answer that verifies under none of the session's origins (OpenID4VP 1.0 B.2.6.2:
    /// the device signature covers the page's origin).
    public static let originMismatch = Self(.originMismatch)
    /// A Digital Credentials API answer for a protocol the session did not offer.
    public static let protocolMismatch = Self(.protocolMismatch)
    /// A Digital Credentials API answer that does not decrypt with the session's key (the JWE of OpenID4VP 1.0 §8.3;
    /// the HPKE of ISO/IEC TS 18013-7 Annex C under the transcript of each of the session's origins).
    public static let decryptionFailed = Self(.decryptionFailed)
    /// An mdoc reader's (given by the SDK's proximity reader only): a session message that does not decrypt with the
    /// session keys (ISO/IEC 18013-5 §9.1.1.5).
    public static let sessionEncryptionFailed = Self(.sessionEncryptionFailed)
}
