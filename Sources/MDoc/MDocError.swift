import CertificatePath
/// Why an mDoc was refused: every check of ISO/IEC 18013-5 §9.3.1 (mdoc reader authentication of the issuer data)
/// and of the Annex B certificate profiles has its own case and stable ``code``.
public enum MDocError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The bytes are not the CBOR structure 18013-5 §8.3.2.1.2 defines (the message says where).
    case malformed(String)
    /// `digestAlgorithm` is not SHA-256, SHA-384 or SHA-512 (§9.1.2.5).
    case unsupportedDigestAlgorithm(String)
    /// The MSO `version` or DeviceResponse `version` is not one this reader knows.
    case unsupportedVersion(String)
    /// `issuerAuth` carries no `x5chain` (§9.1.2.4: the document signer certificate is required).
    case issuerCertificateMissing
    /// A certificate of `x5chain` is not DER X.509.
    case issuerCertificateMalformed(String)
    /// No trusted IACA issued the document signer certificate (subject/issuer names or signature).
    case issuerCertificateUntrusted(String)
    /// The document signer certificate is not valid yet / any more at the verification time (Annex B.1.4).
    case issuerCertificateNotYetValid
    case issuerCertificateExpired
    /// The document signer certificate's profile (Annex B.1.4): key usage digitalSignature only, extended key usage
    /// mdlDS (1.0.18013.5.1.2), not a CA.
    case issuerCertificateProfile(String)
    /// The IACA certificate that issued the document signer is outside its validity, or its profile (Annex B.1.2:
    /// basicConstraints CA with pathLen 0, key usage keyCertSign and cRLSign) does not hold.
    case iacaNotYetValid
    case iacaExpired
    case iacaProfile(String)
    /// The document signer's path breaks a rule of the path validator: an issuer not a CA, without keyCertSign or
    /// beyond its pathLenConstraint, an intermediate outside its validity, or the extended key usage (code
    /// `MDOC_` and the path failure's code, e.g. `MDOC_CERT_ISSUER_NOT_CA`).
    case issuerCertificatePath(CertificatePathFailure)
    /// The MSO's `validityInfo.signed` lies outside the document signer certificate's validity (§9.3.1 step 4).
    case signedOutsideCertificateValidity
    /// The issuerAuth COSE_Sign1 signature does not verify with the document signer key (§9.1.2.4).
    case issuerSignatureInvalid
    /// A disclosed item's digest is not the MSO's value digest for its digestID (§9.3.1 step 2).
    case digestMismatch(nameSpace: String, elementIdentifier: String)
    /// A disclosed item's digestID has no value digest in the MSO.
    case digestMissing(nameSpace: String, digestID: UInt64)
    /// A digestID or element identifier occurs twice in one namespace.
    case duplicateItem(nameSpace: String, String)
    /// The Document's docType differs from the MSO's (§9.3.1 step 3).
    case docTypeMismatch(document: String, mso: String)
    /// The verification time is before `validFrom` / after `validUntil` (§9.3.1 step 5).
    case notYetValid
    case expired
    /// The document has no `deviceSigned` or it has neither deviceSignature nor deviceMac.
    case deviceAuthenticationMissing
    /// Device authentication by MAC (§9.1.3.5) needs the session's ephemeral reader key, which online presentation
    /// with OpenID4VP does not have; a verifier given none refuses a deviceMac with this case.
    case deviceMacNotSupported
    /// The deviceMac does not verify over DeviceAuthentication under EMacKey (§9.1.3.5), or is not a COSE_Mac0 of
    /// HMAC 256/256.
    case deviceMacInvalid
    /// The device key in the MSO is not a key this library verifies with (EC2 P-256, P-384, P-521).
    case deviceKeyUnsupported(String)
    /// The deviceSignature does not verify over DeviceAuthentication with the MSO's device key (§9.1.3.6).
    case deviceSignatureInvalid
    /// Signing (issuing, device authentication) failed in the signer.
    case signingFailed(String)
    /// A DocRequest has no `readerAuth` where reader authentication was to be verified (§9.1.4).
    case readerAuthenticationMissing
    /// `readerAuth` carries no `x5chain` (§9.1.4: the reader certificate is in the unprotected header, label 33).
    case readerCertificateMissing
    /// The `x5chain` of `readerAuth` is not DER X.509 certificates with an EC key.
    case readerCertificateMalformed(String)
    /// The `readerAuth` signature does not verify over ReaderAuthenticationBytes with the reader certificate's key.
    case readerSignatureInvalid

    public var code: String {
        switch self {
        case .malformed: "MDOC_MALFORMED"
        case .unsupportedDigestAlgorithm: "MDOC_UNSUPPORTED_DIGEST_ALGORITHM"
        case .unsupportedVersion: "MDOC_UNSUPPORTED_VERSION"
        case .issuerCertificateMissing: "MDOC_ISSUER_CERTIFICATE_MISSING"
        case .issuerCertificateMalformed: "MDOC_ISSUER_CERTIFICATE_MALFORMED"
        case .issuerCertificateUntrusted: "MDOC_ISSUER_CERTIFICATE_UNTRUSTED"
        case .issuerCertificateNotYetValid: "MDOC_ISSUER_CERTIFICATE_NOT_YET_VALID"
        case .issuerCertificateExpired: "MDOC_ISSUER_CERTIFICATE_EXPIRED"
        case .issuerCertificateProfile: "MDOC_ISSUER_CERTIFICATE_PROFILE"
        case .iacaNotYetValid: "MDOC_IACA_NOT_YET_VALID"
        case .iacaExpired: "MDOC_IACA_EXPIRED"
        case .iacaProfile: "MDOC_IACA_PROFILE"
        case .issuerCertificatePath(let failure): "MDOC_" + failure.code
        case .signedOutsideCertificateValidity: "MDOC_SIGNED_OUTSIDE_CERTIFICATE_VALIDITY"
        case .issuerSignatureInvalid: "MDOC_ISSUER_SIGNATURE_INVALID"
        case .digestMismatch: "MDOC_DIGEST_MISMATCH"
        case .digestMissing: "MDOC_DIGEST_MISSING"
        case .duplicateItem: "MDOC_DUPLICATE_ITEM"
        case .docTypeMismatch: "MDOC_DOCTYPE_MISMATCH"
        case .notYetValid: "MDOC_NOT_YET_VALID"
        case .expired: "MDOC_EXPIRED"
        case .deviceAuthenticationMissing: "MDOC_DEVICE_AUTHENTICATION_MISSING"
        case .deviceMacNotSupported: "MDOC_DEVICE_MAC_NOT_SUPPORTED"
        case .deviceMacInvalid: "MDOC_DEVICE_MAC_INVALID"
        case .deviceKeyUnsupported: "MDOC_DEVICE_KEY_UNSUPPORTED"
        case .deviceSignatureInvalid: "MDOC_DEVICE_SIGNATURE_INVALID"
        case .signingFailed: "MDOC_SIGNING_FAILED"
        case .readerAuthenticationMissing: "MDOC_READER_AUTHENTICATION_MISSING"
        case .readerCertificateMissing: "MDOC_READER_CERTIFICATE_MISSING"
        case .readerCertificateMalformed: "MDOC_READER_CERTIFICATE_MALFORMED"
        case .readerSignatureInvalid: "MDOC_READER_SIGNATURE_INVALID"
        }
    }

    public var description: String {
        switch self {
        case .malformed(let message): "malformed mDoc: \(message)"
        case .unsupportedDigestAlgorithm(let name): "unsupported digest algorithm \(name)"
        case .unsupportedVersion(let version): "unsupported version \(version)"
        case .issuerCertificateMissing: "issuerAuth has no x5chain"
        case .issuerCertificateMalformed(let message): "document signer certificate: \(message)"
        case .issuerCertificateUntrusted(let message): "document signer certificate is not issued by a trusted IACA: \(message)"
        case .issuerCertificateNotYetValid: "document signer certificate is not valid yet"
        case .issuerCertificateExpired: "document signer certificate has expired"
        case .issuerCertificateProfile(let message): "document signer certificate profile: \(message)"
        case .iacaNotYetValid: "IACA certificate is not valid yet"
        case .iacaExpired: "IACA certificate has expired"
        case .iacaProfile(let message): "IACA certificate profile: \(message)"
        case .issuerCertificatePath(let failure): "document signer certificate path: \(failure)"
        case .signedOutsideCertificateValidity: "the MSO was signed outside the document signer certificate's validity"
        case .issuerSignatureInvalid: "issuerAuth signature does not verify"
        case .digestMismatch(let nameSpace, let element): "digest of \(nameSpace)/\(element) does not match the MSO"
        case .digestMissing(let nameSpace, let digestID): "the MSO has no digest \(digestID) in \(nameSpace)"
        case .duplicateItem(let nameSpace, let what): "\(what) occurs twice in \(nameSpace)"
        case .docTypeMismatch(let document, let mso): "document docType \(document) is not the MSO's \(mso)"
        case .notYetValid: "the mDoc is not valid yet (validFrom)"
        case .expired: "the mDoc has expired (validUntil)"
        case .deviceAuthenticationMissing: "the document has no device authentication"
        case .deviceMacNotSupported: "device authentication by MAC is not supported here"
        case .deviceMacInvalid: "deviceMac does not verify over DeviceAuthentication"
        case .deviceKeyUnsupported(let message): "device key: \(message)"
        case .deviceSignatureInvalid: "deviceSignature does not verify over DeviceAuthentication"
        case .signingFailed(let message): "signing failed: \(message)"
        case .readerAuthenticationMissing: "the document request has no readerAuth"
        case .readerCertificateMissing: "readerAuth has no x5chain"
        case .readerCertificateMalformed(let message): "reader certificate: \(message)"
        case .readerSignatureInvalid: "readerAuth signature does not verify over ReaderAuthentication"
        }
    }
}
