import Crypto
import Foundation
import MDoc

/// ISO/IEC TS 18013-7 (second edition) Annex C — the response encryption: HPKE (RFC 9180) in base mode with
/// DHKEM(P-256, HKDF-SHA256), HKDF-SHA256 and AES-128-GCM, to the `recipientPublicKey` of the request's
/// ``EncryptionInfo``, `info` the CBOR-encoded Annex C SessionTranscript (``SessionTranscript/dcapi(encryptionInfo:origin:)``)
/// and an empty `aad`, one message (sequence number 0). The `info` choice is the one Multipaz's and SpruceID's
/// Annex C code make: a response is bound to the request's EncryptionInfo and to the page's origin.
public enum AnnexCEncryption {
    /// RFC 9180 §7: KEM 0x0010, KDF 0x0001, AEAD 0x0001.
    public static let ciphersuite = HPKE.Ciphersuite(kem: .P256_HKDF_SHA256, kdf: .HKDF_SHA256, aead: .AES_GCM_128)

    /// The wallet's side: encrypts `deviceResponse` (the DeviceResponse CBOR) to the request's key.
    public static func seal(deviceResponse: [UInt8], to encryptionInfo: EncryptionInfo,
                            sessionTranscript: SessionTranscript) throws(DigitalCredentialsError) -> EncryptedResponse {
        let enc: [UInt8], cipherText: [UInt8]
        do {
            var sender = try HPKE.Sender(recipientKey: encryptionInfo.recipientPublicKey, ciphersuite: ciphersuite,
                                         info: Data(sessionTranscript.encoded))
            cipherText = Array(try sender.seal(deviceResponse, authenticating: Data()))
            enc = Array(sender.encapsulatedKey)
        } catch {
            throw .encryptionFailed("\(error)")
        }
        return try EncryptedResponse(enc: enc, cipherText: cipherText)
    }

    /// The wallet's side for the page at `origin`: the transcript made from the request's `encryptionInfo` as sent.
    public static func seal(deviceResponse: [UInt8], to encryptionInfo: EncryptionInfo,
                            origin: String) throws(DigitalCredentialsError) -> EncryptedResponse {
        try seal(deviceResponse: deviceResponse, to: encryptionInfo,
                 sessionTranscript: .dcapi(encryptionInfo: encryptionInfo.base64URL, origin: origin))
    }

    /// The verifier's side: the DeviceResponse bytes, or ``DigitalCredentialsError/decryptionFailed`` when the
    /// response was not sealed to `recipientKey` under `sessionTranscript` or was changed.
    public static func open(_ response: EncryptedResponse, recipientKey: P256.KeyAgreement.PrivateKey,
                            sessionTranscript: SessionTranscript) throws(DigitalCredentialsError) -> [UInt8] {
        try HPKEBase.open(enc: response.enc, cipherText: response.cipherText, recipientKey: recipientKey,
                          info: sessionTranscript.encoded, aad: [])
    }

    /// What opened, and for which of the candidate origins.
    public struct Opened: Sendable, Hashable {
        public let deviceResponse: [UInt8]
        public let origin: String
        public let sessionTranscript: SessionTranscript
    }

    /// The verifier's side when the page may be served from several origins: the origin is never taken from the
    /// response; the transcript of each candidate is tried in order and the first that opens is the answer's.
    /// ``DigitalCredentialsError/decryptionFailed`` when none does (AEAD cannot tell a wrong origin from a changed
    /// ciphertext).
    public static func open(_ response: EncryptedResponse, recipientKey: P256.KeyAgreement.PrivateKey,
                            encryptionInfo: String, origins: [String]) throws(DigitalCredentialsError) -> Opened {
        for origin in origins {
            let transcript = SessionTranscript.dcapi(encryptionInfo: encryptionInfo, origin: origin)
            if let plaintext = try? open(response, recipientKey: recipientKey, sessionTranscript: transcript) {
                return Opened(deviceResponse: plaintext, origin: origin, sessionTranscript: transcript)
            }
        }
        throw .decryptionFailed
    }
}

/// RFC 9180 §6.1 single-shot open in base mode with ``AnnexCEncryption/ciphersuite``: `enc` checked as a P-256
/// point (§7.1.1), then the context set up with `info` and the first message opened with `aad`.
public enum HPKEBase {
    public static func open(enc: [UInt8], cipherText: [UInt8], recipientKey: P256.KeyAgreement.PrivateKey,
                            info: [UInt8], aad: [UInt8]) throws(DigitalCredentialsError) -> [UInt8] {
        try EncryptedResponse.checkEncapsulatedKey(enc)
        do {
            var recipient = try HPKE.Recipient(privateKey: recipientKey, ciphersuite: AnnexCEncryption.ciphersuite,
                                               info: Data(info), encapsulatedKey: Data(enc))
            return Array(try recipient.open(cipherText, authenticating: aad))
        } catch {
            throw .decryptionFailed
        }
    }
}
