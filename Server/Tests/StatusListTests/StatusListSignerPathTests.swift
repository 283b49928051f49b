import CertificatePath
import COSE
import Crypto
import Foundation
import JOSE
import StatusList
import Testing
import TestSupport
import X509

/// The signer's `x5chain` / `x5c` goes through the project's path validator (docs/security.md "Certificate paths"): each
/// defect of the chain refused with its own code, the token otherwise honest.
@Suite struct StatusListSignerPathTests {
    let now = Date(timeIntervalSince1970: 1_800_000_000)
    static let uri = "https://issuer.example/status/1"

    func token(_ format: StatusListToken.Format, _ pki: TestPKI) throws -> [UInt8] {
        var list = try StatusList(bits: 1, count: 16)
        try list.setStatus(1, at: 3)
        let token = StatusListToken(subject: Self.uri, issuedAt: now.addingTimeInterval(-60), expiresAt: now.addingTimeInterval(3_600),
                                    timeToLive: 600, list: list)
        switch format {
        case .cwt: return try token.cwt(signer: COSESigningKey.p256(pki.leaf.key), certificateChain: pki.chainDER)
        case .jwt: return Array(try token.jwt(key: JWSSigningKey(pki.leaf.key), certificateChain: pki.chainDER).utf8)
        }
    }

    @Test(arguments: [StatusListToken.Format.cwt, .jwt]) func eachDefectOfTheSignersPathIsRefused(_ format: StatusListToken.Format) async throws {
        let expected: [TestPKI.Defect: String] = [
            .nonCAIntermediate: "CERT_ISSUER_NOT_CA", .intermediateWithoutKeyCertSign: "CERT_ISSUER_NO_KEY_CERT_SIGN",
            .pathLengthZeroWithCABelow: "CERT_PATH_LENGTH_EXCEEDED", .expiredIssuer: "CERT_EXPIRED",
            .wrongExtendedKeyUsage: "CERT_EXTENDED_KEY_USAGE",
        ]
        for defect in TestPKI.Defect.allCases {
            let pki = try TestPKI(defect: defect, at: now, usage: ExtendedKeyUsages.statusListSigning,
                                  wrongUsage: ExtendedKeyUsages.serverAuthentication)
            let verifier = StatusListTokenVerifier(trust: .anchors([pki.root.certificate]))
            let bytes = try token(format, pki)
            do {
                let signed = try await verifier.verify(bytes, expectedURI: Self.uri, at: now)
                #expect(defect == .none, "\(defect) was accepted")
                #expect(signed.token.subject == Self.uri)
            } catch {
                #expect(error.code == expected[defect], "\(defect): \(error)")
            }
        }
    }

    /// An end entity under the trusted root (a document signer) cannot certify a status list signer of its own.
    @Test func anEndEntityCannotCertifyASigner() async throws {
        let pki = try TestPKI(defect: .none, at: now, usage: ExtendedKeyUsages.mdlDocumentSigner)
        let forged = try TestPKI.mint("Forged Status Signer", issuer: pki.leaf, validity: (now.addingTimeInterval(-600), now.addingTimeInterval(3_600)),
                                      constraints: nil, keyUsage: KeyUsage(digitalSignature: true),
                                      usages: [ExtendedKeyUsages.statusListSigning], dnsName: nil)
        var list = try StatusList(bits: 1, count: 16)
        try list.setStatus(0, at: 3)
        let bytes = try StatusListToken(subject: Self.uri, issuedAt: now.addingTimeInterval(-60), expiresAt: now.addingTimeInterval(3_600),
                                        timeToLive: 600, list: list)
            .cwt(signer: COSESigningKey.p256(forged.key), certificateChain: [forged.der] + pki.chainDER)
        await #expect(throws: StatusListError.signerCertificatePath(.issuerNotCertificateAuthority(index: 1))) {
            try await StatusListTokenVerifier(trust: .anchors([pki.root.certificate])).verify(bytes, expectedURI: Self.uri, at: now)
        }
    }
}
