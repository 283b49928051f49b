import CBOR
import COSE
import Foundation
import MDoc
import Testing
import TestSupport
import X509

/// The EUDI sample DeviceResponses (shared/vectors/mdoc/eudi-sample-*.b64): their issuing CA is not published, so
/// the issuer signature is checked with the document signer's own key, the digests in full, and a verifier that
/// trusts no IACA refuses them.
@Suite struct EUDISampleTests {
    static let files = ["mdoc/eudi-sample-mdl-device-response.b64", "mdoc/eudi-sample-pid-device-response.b64"]

    func response(_ file: String) throws -> DeviceResponse {
        let text = String(decoding: try TestEnvironment.vector(file), as: UTF8.self)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while base64.count % 4 != 0 { base64 += "=" }
        return try DeviceResponse(decoding: Array(try #require(Data(base64Encoded: base64))))
    }

    @Test(arguments: files) func issuerSignatureAndDigests(_ file: String) async throws {
        let response = try response(file)
        let document = try #require(response.documents.first)
        let issuerSigned = document.issuerSigned
        #expect(issuerSigned.mso.docType == document.docType)
        let leaf = try Certificate(derEncoded: try #require(try issuerSigned.issuerAuth.x5chain().first))
        try MDocVerifier.verifyIssuerSignature(issuerSigned, key: try IssuerTrust.verificationKey(of: leaf))
        try MDocVerifier.verifyDigests(issuerSigned)
        #expect(issuerSigned.nameSpaces.flatMap(\.items).count >= 30)
        // The sample's MSO was signed after its DS certificate expired: a strict verifier refuses it.
        #expect(issuerSigned.mso.validityInfo.signed > leaf.notValidAfter)
        await #expect(throws: MDocError.self) {
            try await MDocVerifier(trust: IssuerTrust(iacas: [])).verify(issuerSigned, docType: document.docType, at: issuerSigned.mso.validityInfo.signed)
        }
    }
}
