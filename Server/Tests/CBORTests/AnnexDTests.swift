import CBOR
import Foundation
import Testing
import TestSupport

/// ISO/IEC 18013-5 Annex D DeviceResponse (shared/vectors/mdoc/iso18013-5-annex-d.json, key `hex.DEVICE_RESPONSE`).
@Suite("ISO 18013-5 Annex D")
struct AnnexDTests {
    static func deviceResponse() throws -> [UInt8] {
        let json = try TestEnvironment.jsonVector("mdoc/iso18013-5-annex-d.json")
        guard let hex = (json["hex"] as? [String: Any])?["DEVICE_RESPONSE"] as? String else {
            throw TestSupportError("no hex.DEVICE_RESPONSE")
        }
        return hexBytes(hex)
    }

    @Test func deviceResponseDecodesAndReencodesToTheSameBytes() throws {
        let bytes = try Self.deviceResponse()
        let item = try CBOR.decode(bytes)
        #expect(item.value.encoded() == bytes)
        #expect(try item.value(forKey: "version").text() == "1.0")
        let document = try item.value(forKey: "documents").element(0)
        #expect(try document.value(forKey: "docType").text() == "org.iso.18013.5.1.mDL")
        let issuerAuth = try document.value(forKey: "issuerSigned").value(forKey: "issuerAuth")
        // The MSO is tag 24 inside the COSE_Sign1 payload; its digests are over the embedded bytes as received.
        let mso = try issuerAuth.element(2).embedded().embedded()
        #expect(try mso.value(forKey: "digestAlgorithm").text() == "SHA-256")
        let items = try document.value(forKey: "issuerSigned").value(forKey: "nameSpaces")
            .value(forKey: "org.iso.18013.5.1").array()
        for element in items {
            let issuerSignedItem = try element.embedded()
            #expect(Array(issuerSignedItem.rawBytes) == Array(try #require(element.embeddedBytes)))
        }
    }

    @Test func prettyDiagnosticShowsEmbeddedItems() throws {
        let pretty = try CBOR.decode(try Self.deviceResponse()).prettyDiagnostic()
        #expect(pretty.contains("24(<<{"))
        #expect(pretty.contains("\"elementIdentifier\": \"family_name\""))
    }
}
