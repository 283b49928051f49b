import Crypto
import Foundation
import SwiftASN1
import X509

/// Makes the certificates of an mDoc issuer with the profiles of ISO/IEC 18013-5 Annex B: the IACA root (B.1.2,
/// self-signed, CA with pathLen 0, keyCertSign + cRLSign) and the certificates it issues (B.1.4 document signer:
/// digitalSignature and the mdlDS extended key usage; other signers such as a status list signer differ only in
/// their extended key usage). The tenant server, the tests and the benchmarks make them here.
public enum MDocCertificates {
    /// The subject of an IACA or a signer: Annex B requires the country (C) and a common name (CN).
    public static func name(commonName: String, country: String, organization: String? = nil) throws -> DistinguishedName {
        try DistinguishedName {
            CountryName(country)
            if let organization { OrganizationName(organization) }
            CommonName(commonName)
        }
    }

    /// A self-signed IACA certificate for `key`.
    public static func iaca(key: P256.Signing.PrivateKey, subject: DistinguishedName, notBefore: Date, notAfter: Date,
                            issuerAlternativeNameURI: String? = nil) throws -> Certificate {
        let publicKey = Certificate.PublicKey(key.publicKey)
        let extensions = try Certificate.Extensions {
            Critical(BasicConstraints.isCertificateAuthority(maxPathLength: 0))
            Critical(KeyUsage(keyCertSign: true, cRLSign: true))
            SubjectKeyIdentifier(hash: publicKey)
            if let issuerAlternativeNameURI { try issuerAlternativeName(uri: issuerAlternativeNameURI) }
        }
        return try Certificate(version: .v3, serialNumber: randomSerial(), publicKey: publicKey,
                               notValidBefore: notBefore, notValidAfter: notAfter, issuer: subject, subject: subject,
                               signatureAlgorithm: .ecdsaWithSHA256, extensions: extensions,
                               issuerPrivateKey: Certificate.PrivateKey(key))
    }

    /// A signer certificate issued by `iaca` (Annex B.1.4 with `extendedKeyUsage` = mdlDS for a document signer).
    public static func signer(publicKey: P256.Signing.PublicKey, subject: DistinguishedName, iaca: Certificate,
                              iacaKey: P256.Signing.PrivateKey, notBefore: Date, notAfter: Date,
                              extendedKeyUsage: ASN1ObjectIdentifier = IssuerTrust.mdlDSExtendedKeyUsage) throws -> Certificate {
        let subjectKey = Certificate.PublicKey(publicKey)
        let iacaKeyId = try iaca.extensions.subjectKeyIdentifier?.keyIdentifier
            ?? SubjectKeyIdentifier(hash: iaca.publicKey).keyIdentifier
        let extensions = try Certificate.Extensions {
            Critical(KeyUsage(digitalSignature: true))
            Critical(try ExtendedKeyUsage([ExtendedKeyUsage.Usage(oid: extendedKeyUsage)]))
            AuthorityKeyIdentifier(keyIdentifier: iacaKeyId)
            SubjectKeyIdentifier(hash: subjectKey)
        }
        return try Certificate(version: .v3, serialNumber: randomSerial(), publicKey: subjectKey,
                               notValidBefore: notBefore, notValidAfter: notAfter, issuer: iaca.subject, subject: subject,
                               signatureAlgorithm: .ecdsaWithSHA256, extensions: extensions,
                               issuerPrivateKey: Certificate.PrivateKey(iacaKey))
    }

    /// RFC 5280 §4.2.1.7 issuerAltName (2.5.29.18), non-critical, with one URI (Annex B.1.2 asks IACAs for one).
    static func issuerAlternativeName(uri: String) throws -> Certificate.Extension {
        var serializer = DER.Serializer()
        try serializer.serializeSequenceOf([GeneralName.uniformResourceIdentifier(uri)])
        return Certificate.Extension(oid: [2, 5, 29, 18], critical: false, value: serializer.serializedBytes[...])
    }

    /// The DER encoding of a certificate.
    public static func der(_ certificate: Certificate) throws -> [UInt8] {
        var serializer = DER.Serializer()
        try serializer.serialize(certificate)
        return serializer.serializedBytes
    }

    /// A positive 20-byte serial (RFC 5280 §4.1.2.2 allows at most 20 octets).
    static func randomSerial() -> Certificate.SerialNumber {
        var bytes = (0..<20).map { _ in UInt8.random(in: 0...255) }
        bytes[0] &= 0x7F
        bytes[0] |= 0x01
        return Certificate.SerialNumber(bytes: bytes)
    }
}
