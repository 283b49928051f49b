import MDoc

/// Why a Digital Credentials API message (W3C Digital Credentials; OpenID4VP 1.0 Appendix A; ISO/IEC TS 18013-7
/// Annex C) was refused, each check with its own case and stable ``code``. Callers map the codes to their own (the
/// verifier to its presentation failures, the SDK to `REQUEST_INVALID`).
public enum DigitalCredentialsError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The JSON is not the `{protocol, data}` (or `{requests}`) structure, or `data` lacks a member its protocol
    /// needs (the message says which).
    case malformed(String)
    /// A protocol's data was read from a request or response of another protocol.
    case protocolMismatch(expected: DigitalCredentialProtocol, found: DigitalCredentialProtocol)
    /// A form the specification allows that this version does not read (OpenID4VP 1.0 Appendix A.3.2.2's JWS JSON
    /// serialization of a signed request).
    case unsupported(String)
    /// Annex C `EncryptionInfo` is not base64url (no padding) of the CBOR `[type, {nonce, recipientPublicKey}]`.
    case encryptionInfoMalformed(String)
    /// The type string of `EncryptionInfo` or `EncryptedResponse` is not `"dcapi"` (Annex C).
    case unexpectedType(String)
    /// The `EncryptionInfo` nonce is shorter than Annex C's 16 bytes.
    case nonceTooShort(Int)
    /// `recipientPublicKey` is not a COSE_Key EC2 P-256 public key on the curve (Annex C: HPKE DHKEM(P-256)).
    case recipientKeyUnsupported(String)
    /// Annex C `EncryptedResponse` is not the CBOR `[type, {enc, cipherText}]`.
    case encryptedResponseMalformed(String)
    /// `enc` is not a 65-byte uncompressed P-256 point on the curve (RFC 9180 §7.1.1 SerializePublicKey).
    case encapsulatedKeyInvalid(String)
    /// HPKE open failed (RFC 9180 §5.2): another recipient key, another SessionTranscript (origin, encryptionInfo)
    /// as `info`, or a changed ciphertext; AEAD cannot tell which.
    case decryptionFailed
    /// HPKE seal failed in the library.
    case encryptionFailed(String)
    /// The Annex C `deviceRequest` is not base64url of an ISO/IEC 18013-5 §8.3.2.1.2.1 DeviceRequest.
    case deviceRequestMalformed(MDocError)
    /// Reader authentication (ISO/IEC 18013-5 §9.1.4 over the Annex C SessionTranscript) could not be made, or a
    /// document request's `readerAuth` does not verify (the mdoc error says which check).
    case readerAuthenticationFailed(MDocError)

    public var code: String {
        switch self {
        case .malformed: "MALFORMED"
        case .protocolMismatch: "PROTOCOL_MISMATCH"
        case .unsupported: "UNSUPPORTED"
        case .encryptionInfoMalformed: "ENCRYPTION_INFO_MALFORMED"
        case .unexpectedType: "UNEXPECTED_TYPE"
        case .nonceTooShort: "NONCE_TOO_SHORT"
        case .recipientKeyUnsupported: "RECIPIENT_KEY_UNSUPPORTED"
        case .encryptedResponseMalformed: "ENCRYPTED_RESPONSE_MALFORMED"
        case .encapsulatedKeyInvalid: "ENCAPSULATED_KEY_INVALID"
        case .decryptionFailed: "DECRYPTION_FAILED"
        case .encryptionFailed: "ENCRYPTION_FAILED"
        case .deviceRequestMalformed: "DEVICE_REQUEST_MALFORMED"
        case .readerAuthenticationFailed: "READER_AUTHENTICATION_FAILED"
        }
    }

    public var description: String {
        switch self {
        case .malformed(let message): "malformed Digital Credentials API message: \(message)"
        case .protocolMismatch(let expected, let found): "expected a \(expected) message, got \(found)"
        case .unsupported(let message): "unsupported: \(message)"
        case .encryptionInfoMalformed(let message): "malformed EncryptionInfo: \(message)"
        case .unexpectedType(let type): "the structure's type is \"\(type)\", not \"dcapi\""
        case .nonceTooShort(let count): "the EncryptionInfo nonce has \(count) bytes, at least 16 are required"
        case .recipientKeyUnsupported(let message): "recipientPublicKey: \(message)"
        case .encryptedResponseMalformed(let message): "malformed EncryptedResponse: \(message)"
        case .encapsulatedKeyInvalid(let message): "enc: \(message)"
        case .decryptionFailed: "the response does not decrypt with this key and SessionTranscript"
        case .encryptionFailed(let message): "encryption failed: \(message)"
        case .deviceRequestMalformed(let error): "deviceRequest: \(error)"
        case .readerAuthenticationFailed(let error): "reader authentication: \(error)"
        }
    }
}
