import CBOR
import CertificatePath
import COSE
import Crypto
import Foundation
import MDoc
import Testing
import TestSupport
import X509

/// The document signer's `x5chain` through the project's path validator (docs/security.md "Certificate paths"): an mDoc
/// honestly signed by the leaf of each chain, only the chain's defect refusing it.
@Suite struct IssuerPathTests {
    let now = Date(timeIntervalSince1970: 1_800_000_000)

    func issue(_ pki: TestPKI) throws -> IssuerSigned {
        try MDocIssuer(signer: COSESigningKey.p256(pki.leaf.key), certificateChain: pki.chainDER).issue(
            docType: "org.iso.18013.5.1.mDL",
            nameSpaces: [MDocIssuer.NameSpaceElements(name: "org.iso.18013.5.1", elements: [("family_name", .text("Doe"))])],
            deviceKey: COSEKey(publicKey: P256.Signing.PrivateKey().publicKey),
            validity: .init(signed: now.addingTimeInterval(-60), validFrom: now.addingTimeInterval(-60), validUntil: now.addingTimeInterval(86_400)),
            status: nil)
    }

    @Test func eachDefectOfTheDocumentSignersPathIsRefused() async throws {
        let expected: [TestPKI.Defect: String] = [
            .nonCAIntermediate: "MDOC_CERT_ISSUER_NOT_CA", .intermediateWithoutKeyCertSign: "MDOC_CERT_ISSUER_NO_KEY_CERT_SIGN",
            .pathLengthZeroWithCABelow: "MDOC_CERT_PATH_LENGTH_EXCEEDED", .expiredIssuer: "MDOC_IACA_EXPIRED",
            .wrongExtendedKeyUsage: "MDOC_CERT_EXTENDED_KEY_USAGE",
        ]
        for defect in TestPKI.Defect.allCases {
            // ISO 18013-5 §9.3.3: the IACA (pathLenConstraint 0) issues the document signer directly.
            let pki = try TestPKI(defect: defect, at: now, intermediate: false, rootPathLength: 0, usage: ExtendedKeyUsages.mdlDocumentSigner,
                                  wrongUsage: ExtendedKeyUsages.statusListSigning)
            let issuerSigned = try issue(pki)
            do {
                let verified = try await MDocVerifier(trust: IssuerTrust(iacas: [pki.root.certificate])).verify(issuerSigned, at: now)
                #expect(defect == .none, "\(defect) was accepted")
                #expect(verified.iaca == pki.root.certificate)
            } catch {
                #expect(error.code == expected[defect], "\(defect): \(error)")
            }
        }
    }

    /// An expired intermediate (18013-5 has none, but the path validator is asked first): refused by its validity.
    @Test func anExpiredIntermediateIsRefused() async throws {
        let pki = try TestPKI(defect: .expiredIssuer, at: now, intermediate: true, usage: ExtendedKeyUsages.mdlDocumentSigner)
        await #expect(throws: MDocError.issuerCertificatePath(.expired(index: 1))) {
            try await MDocVerifier(trust: IssuerTrust(iacas: [pki.root.certificate])).verify(try issue(pki), at: now)
        }
    }

    /// A document signer cannot certify a document signer of its own.
    @Test func aDocumentSignerCannotIssueOne() async throws {
        let pki = try TestPKI(defect: .none, at: now, intermediate: false, rootPathLength: 0, usage: ExtendedKeyUsages.mdlDocumentSigner)
        let forged = try TestPKI.mint("Forged DS", issuer: pki.leaf, validity: (now.addingTimeInterval(-600), now.addingTimeInterval(3_600)),
                                      constraints: nil, keyUsage: KeyUsage(digitalSignature: true),
                                      usages: [ExtendedKeyUsages.mdlDocumentSigner], dnsName: nil)
        let issuerSigned = try MDocIssuer(signer: COSESigningKey.p256(forged.key), certificateChain: [forged.der] + pki.chainDER).issue(
            docType: "org.iso.18013.5.1.mDL",
            nameSpaces: [MDocIssuer.NameSpaceElements(name: "org.iso.18013.5.1", elements: [("family_name", .text("Doe"))])],
            deviceKey: COSEKey(publicKey: P256.Signing.PrivateKey().publicKey),
            validity: .init(signed: now.addingTimeInterval(-60), validFrom: now.addingTimeInterval(-60), validUntil: now.addingTimeInterval(86_400)),
            status: nil)
        await #expect(throws: MDocError.issuerCertificatePath(.issuerNotCertificateAuthority(index: 1))) {
            try await MDocVerifier(trust: IssuerTrust(iacas: [pki.root.certificate])).verify(issuerSigned, at: now)
        }
    }
}
