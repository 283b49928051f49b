import CBOR
import COSE
import Crypto

/// `EMacKey` (ISO/IEC 18013-5 §9.1.3.5): the key of a deviceMac, HKDF-SHA256 (RFC 5869) with
/// IKM = the x-coordinate of ECDH(SDeviceKey private, EReaderKey public) — the same value as ECDH(EReaderKey private,
/// SDeviceKey public) on the reader —, salt = SHA-256(SessionTranscriptBytes) (the #6.24-tagged transcript),
/// info = "EMacKey", 32 bytes.
public enum EMacKey {
    /// The mdoc's side: its static device key (the MSO's deviceKey) and the reader's ephemeral public key.
    public static func derive(deviceKey: P256.KeyAgreement.PrivateKey, readerKey: P256.KeyAgreement.PublicKey,
                              sessionTranscript: SessionTranscript) throws(MDocError) -> SymmetricKey {
        let secret: SharedSecret
        do { secret = try deviceKey.sharedSecretFromKeyAgreement(with: readerKey) } catch {
            throw .deviceKeyUnsupported("ECDH with the reader key: \(error)")
        }
        return derive(secret, sessionTranscript)
    }

    /// The reader's side: its ephemeral private key and the mdoc's static device key.
    public static func derive(readerKey: P256.KeyAgreement.PrivateKey, deviceKey: P256.KeyAgreement.PublicKey,
                              sessionTranscript: SessionTranscript) throws(MDocError) -> SymmetricKey {
        let secret: SharedSecret
        do { secret = try readerKey.sharedSecretFromKeyAgreement(with: deviceKey) } catch {
            throw .deviceKeyUnsupported("ECDH with the device key: \(error)")
        }
        return derive(secret, sessionTranscript)
    }

    private static func derive(_ secret: SharedSecret, _ sessionTranscript: SessionTranscript) -> SymmetricKey {
        let salt = Array(SHA256.hash(data: sessionTranscript.taggedBytes))
        return secret.hkdfDerivedSymmetricKey(using: SHA256.self, salt: salt, sharedInfo: Array("EMacKey".utf8), outputByteCount: 32)
    }

    /// The MSO's device key as a P-256 key-agreement key (§9.1.3.5 needs an ECDH key; this reader does P-256).
    public static func agreementKey(_ deviceKey: COSEKey) throws(MDocError) -> P256.KeyAgreement.PublicKey {
        guard deviceKey.curve == .p256 else { throw .deviceKeyUnsupported("deviceMac with a \(deviceKey.curve.name) device key") }
        do { return try P256.KeyAgreement.PublicKey(x963Representation: [0x04] + deviceKey.x + deviceKey.y) } catch {
            throw .deviceKeyUnsupported("the device key is not a P-256 point")
        }
    }
}

extension DeviceSigned {
    /// Device authentication by MAC (§9.1.3.5): a COSE_Mac0 (HMAC 256/256) with the detached payload
    /// DeviceAuthenticationBytes, under EMacKey of the device key and the reader's ephemeral key.
    public static func mac(docType: String, sessionTranscript: SessionTranscript, nameSpacesBytes: [UInt8] = emptyNameSpacesBytes,
                           deviceKey: P256.KeyAgreement.PrivateKey, readerKey: P256.KeyAgreement.PublicKey) throws(MDocError) -> DeviceSigned {
        let key = try EMacKey.derive(deviceKey: deviceKey, readerKey: readerKey, sessionTranscript: sessionTranscript)
        let payload = DeviceAuthentication.taggedBytes(sessionTranscript: sessionTranscript, docType: docType,
                                                       deviceNameSpacesBytes: nameSpacesBytes)
        let mac = COSEMac0.mac(payload: payload, key: key, detached: true)
        return DeviceSigned(nameSpacesBytes: nameSpacesBytes, authentication: .mac(mac.cbor(tagged: false)))
    }

    /// Verifies the deviceMac over DeviceAuthenticationBytes with EMacKey of the reader's ephemeral private key and the
    /// MSO's device key (§9.1.3.5; §9.3.1 step 6 for the reader). A MAC that does not verify (or is not a COSE_Mac0 of
    /// HMAC 256/256) is ``MDocError/deviceMacInvalid``.
    public func verifyMac(docType: String, sessionTranscript: SessionTranscript, deviceKey: COSEKey,
                          readerKey: P256.KeyAgreement.PrivateKey) throws(MDocError) {
        guard case .mac(let value) = authentication else { throw .deviceMacInvalid }
        let mac: COSEMac0
        do { mac = try COSEMac0(decoding: value.encoded()) } catch { throw .deviceMacInvalid }
        let key = try EMacKey.derive(readerKey: readerKey, deviceKey: try EMacKey.agreementKey(deviceKey), sessionTranscript: sessionTranscript)
        let payload = DeviceAuthentication.taggedBytes(sessionTranscript: sessionTranscript, docType: docType,
                                                       deviceNameSpacesBytes: nameSpacesBytes)
        do { try mac.verify(key: key, detachedPayload: payload) } catch { throw .deviceMacInvalid }
    }

    /// Device authentication, whichever form it has (§9.3.1 step 6): a deviceSignature with the MSO's device key; a
    /// deviceMac with `readerKey` (the session's ephemeral reader key), refused as
    /// ``MDocError/deviceMacNotSupported`` without one (online presentation has no session keys).
    public func verify(docType: String, sessionTranscript: SessionTranscript, deviceKey: COSEKey,
                       readerKey: P256.KeyAgreement.PrivateKey?) throws(MDocError) {
        switch authentication {
        case .signature:
            try verifySignature(docType: docType, sessionTranscript: sessionTranscript, deviceKey: deviceKey)
        case .mac:
            guard let readerKey else { throw .deviceMacNotSupported }
            try verifyMac(docType: docType, sessionTranscript: sessionTranscript, deviceKey: deviceKey, readerKey: readerKey)
        }
    }
}
