import CBOR
import COSE
import Crypto
import Foundation
import MDoc
import X509

/// A throw-away IACA and document signer made with `MDocCertificates`, and an `MDocIssuer` over them.
struct TestIssuer {
    static let start = Date(timeIntervalSince1970: 1_767_225_600)  // 2026-01-01T00:00:00Z
    let iacaKey = P256.Signing.PrivateKey()
    let signerKey = P256.Signing.PrivateKey()
    let iaca: Certificate
    let documentSigner: Certificate
    let issuer: MDocIssuer

    init(commonName: String = "Test IACA", extendedKeyUsage: [UInt] = [1, 0, 18013, 5, 1, 2],
         signerNotBefore: Date = TestIssuer.start, signerNotAfter: Date = TestIssuer.start.addingTimeInterval(400 * 86_400),
         iacaTransform: ((P256.Signing.PrivateKey, DistinguishedName) throws -> Certificate)? = nil) throws {
        let iacaName = try MDocCertificates.name(commonName: commonName, country: "NL")
        iaca = try iacaTransform?(iacaKey, iacaName)
            ?? MDocCertificates.iaca(key: iacaKey, subject: iacaName, notBefore: Self.start.addingTimeInterval(-86_400),
                                     notAfter: Self.start.addingTimeInterval(3 * 365 * 86_400),
                                     issuerAlternativeNameURI: "https://issuer.example")
        documentSigner = try MDocCertificates.signer(
            publicKey: signerKey.publicKey, subject: try MDocCertificates.name(commonName: "Test DS", country: "NL"),
            iaca: iaca, iacaKey: iacaKey, notBefore: signerNotBefore, notAfter: signerNotAfter,
            extendedKeyUsage: .init(elements: extendedKeyUsage))
        issuer = MDocIssuer(signer: COSESigningKey.p256(signerKey), certificateChain: [try MDocCertificates.der(documentSigner)])
    }

    var trust: IssuerTrust { IssuerTrust(iacas: [iaca]) }
    var verifier: MDocVerifier { MDocVerifier(trust: trust) }

    static let mdlNameSpace = "org.iso.18013.5.1"

    /// A 20-element mDL-shaped mDoc.
    func issueMDL(deviceKey: P256.Signing.PrivateKey, signed: Date = TestIssuer.start.addingTimeInterval(86_400),
                  validUntil: Date? = nil, elementCount: Int = 20,
                  status: MobileSecurityObject.StatusReference? = nil) throws -> IssuerSigned {
        var elements: [(identifier: String, value: CBOR)] = [
            ("family_name", .text("Doe")), ("given_name", .text("Jane")),
            ("birth_date", MDocDate.fullDate("1990-02-03")!), ("issue_date", MDocDate.fullDate("2026-01-02")!),
            ("expiry_date", MDocDate.fullDate("2031-01-02")!), ("issuing_country", .text("NL")),
            ("document_number", .text("NL1234567")), ("portrait", .bytes([UInt8](repeating: 0xAB, count: 512))),
            ("driving_privileges", .array([.map([CBOR.Pair("vehicle_category_code", .text("B"))])])),
            ("age_over_18", .bool(true)),
        ]
        var extra = 0
        while elements.count < elementCount {
            elements.append(("extra_\(extra)", .int(extra)))
            extra += 1
        }
        return try issuer.issue(
            docType: "org.iso.18013.5.1.mDL",
            nameSpaces: [MDocIssuer.NameSpaceElements(name: Self.mdlNameSpace, elements: Array(elements.prefix(elementCount)))],
            deviceKey: COSEKey(publicKey: deviceKey.publicKey),
            validity: .init(signed: signed, validFrom: signed, validUntil: validUntil ?? signed.addingTimeInterval(365 * 86_400)),
            status: status)
    }
}
