import CertificatePath
import Foundation
import JOSE
import Testing
import TestSupport
import X509

/// `x5c` through the project's path validator: an honest chain verifies, each defect is refused with its code.
@Suite struct X5CPathValidationTests {
    let now = Date(timeIntervalSince1970: 1_800_000_000)

    @Test func eachDefectOfTheX5CChainIsRefused() async throws {
        let expected: [TestPKI.Defect: String] = [
            .nonCAIntermediate: "CERT_ISSUER_NOT_CA", .intermediateWithoutKeyCertSign: "CERT_ISSUER_NO_KEY_CERT_SIGN",
            .pathLengthZeroWithCABelow: "CERT_PATH_LENGTH_EXCEEDED", .expiredIssuer: "CERT_EXPIRED",
            .wrongExtendedKeyUsage: "CERT_EXTENDED_KEY_USAGE",
        ]
        let now = self.now
        for defect in TestPKI.Defect.allCases {
            let pki = try TestPKI(defect: defect, at: now, usage: nil, wrongUsage: ExtendedKeyUsages.mdlDocumentSigner)
            var header = JOSEHeader()
            header.setX5C(pki.chainDER)
            let jws = try JWS.sign(payload: [1, 2, 3], header: header, key: JWSSigningKey(pki.leaf.key))
            let validation = X5CPathValidation(validator: CertificatePathValidator(anchors: [pki.root.certificate]), profile: ClientAttestationIssuerProfile(), now: { now })
            do {
                let verified = try await JWSVerifier(keySource: .x5c(validation)).verify(jws.compactSerialization)
                #expect(defect == .none, "\(defect) was accepted")
                #expect(verified.payload == [1, 2, 3])
            } catch let error as JOSEError {
                #expect(error.code == "JOSE_X5C_REJECTED" && "\(error)".contains(expected[defect] ?? "-"), "\(defect): \(error)")
            }
        }
    }
}
