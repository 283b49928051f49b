import Crypto
import Foundation
import SwiftASN1
import X509

/// A CA and the one leaf it issues (P-256, valid from an hour ago for a day): the CA with basicConstraints and
/// keyCertSign (RFC 5280 §4.2.1.9, §4.2.1.3), the leaf with digitalSignature and a dNSName subjectAltName — what a
/// verifier's request-signing certificate and an ISO/IEC 18013-5 reader certificate (§9.1.4) look like to the tests.
struct TestCertificateChain {
    let caKey = P256.Signing.PrivateKey(), leafKey = P256.Signing.PrivateKey()
    let ca: Certificate, leaf: Certificate

    init(caName: String, leafName: String, dnsName: String, now: Date = Date()) throws {
        let issuer = try DistinguishedName { CommonName(caName) }
        ca = try Certificate(version: .v3, serialNumber: .init(), publicKey: .init(caKey.publicKey), notValidBefore: now.addingTimeInterval(-3_600),
                             notValidAfter: now.addingTimeInterval(86_400), issuer: issuer, subject: issuer, signatureAlgorithm: .ecdsaWithSHA256,
                             extensions: try Certificate.Extensions {
                                 Critical(BasicConstraints.isCertificateAuthority(maxPathLength: 0))
                                 Critical(KeyUsage(keyCertSign: true))
                             }, issuerPrivateKey: .init(caKey))
        leaf = try Certificate(version: .v3, serialNumber: .init(), publicKey: .init(leafKey.publicKey), notValidBefore: now.addingTimeInterval(-3_600),
                               notValidAfter: now.addingTimeInterval(86_400), issuer: issuer,
                               subject: try DistinguishedName { CommonName(leafName) }, signatureAlgorithm: .ecdsaWithSHA256,
                               extensions: try Certificate.Extensions {
                                   Critical(KeyUsage(digitalSignature: true))
                                   SubjectAlternativeNames([.dnsName(dnsName)])
                               }, issuerPrivateKey: .init(caKey))
    }

    static func der(_ certificate: Certificate) throws -> [UInt8] {
        var serializer = DER.Serializer()
        try serializer.serialize(certificate)
        return serializer.serializedBytes
    }
}
