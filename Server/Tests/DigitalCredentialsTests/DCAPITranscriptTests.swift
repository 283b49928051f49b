import DigitalCredentials
import Foundation
import JOSE
import MDoc
import OpenID4VP
import Plumbing
import Testing
import TestSupport

/// The two Digital Credentials API SessionTranscripts: OpenID4VP 1.0 Appendix B.2.6.2 against its published example
/// (shared/vectors/oid4vp/oid4vp-1.0-handover-examples.json) byte for byte, and ISO/IEC TS 18013-7 Annex C's.
@Suite struct DCAPITranscriptTests {
    let vector: [String: Any]

    init() throws {
        vector = try TestEnvironment.jsonVector("oid4vp/oid4vp-1.0-handover-examples.json")
    }

    var encryptionKey: JWK {
        get throws {
            let object = try #require(vector["verifierEncryptionJwk"] as? [String: Any])
            return try JSONDecoder().decode(JWK.self, from: JSONSerialization.data(withJSONObject: object))
        }
    }

    @Test func theOpenID4VPDCAPIHandoverIsTheSpecExampleByteForByte() throws {
        let dcApi = try #require(vector["dcApi"] as? [String: String])
        let origin = try #require(dcApi["origin"]), nonce = try #require(dcApi["nonce"])
        let handover = try OpenID4VPDCAPIHandover(origin: origin, nonce: nonce, encryptionKey: try encryptionKey)
        #expect(Hex.encode(try #require(handover.jwkThumbprint)) == vector["jwkThumbprintSha256Hex"] as? String)
        #expect(Hex.encode(handover.infoBytes) == dcApi["openID4VPDCAPIHandoverInfoHex"])
        #expect(Hex.encode(handover.cbor.encoded()) == dcApi["openID4VPDCAPIHandoverHex"])
        let transcript = SessionTranscript.openID4VPDCAPI(origin: origin, nonce: nonce, jwkThumbprint: handover.jwkThumbprint)
        #expect(Hex.encode(transcript.encoded) == dcApi["sessionTranscriptHex"])
    }

    /// The redirect variant of the same file still holds beside it (Appendix B.2.6.1).
    @Test func theRedirectHandoverOfTheSameExampleHolds() throws {
        let redirect = try #require(vector["redirect"] as? [String: String])
        let thumbprint = hexBytes(try #require(vector["jwkThumbprintSha256Hex"] as? String))
        let transcript = SessionTranscript.openID4VP(clientId: try #require(redirect["clientId"]), nonce: try #require(redirect["nonce"]),
                                                     jwkThumbprint: thumbprint, responseUri: try #require(redirect["responseUri"]))
        #expect(Hex.encode(transcript.encoded) == redirect["sessionTranscriptHex"])
    }

    /// B.2.6.2: null for the thumbprint when the response is not encrypted; the origin changes the transcript.
    @Test func withoutAnEncryptionKeyTheThumbprintIsNull() throws {
        let handover = try OpenID4VPDCAPIHandover(origin: "https://example.com", nonce: "n", encryptionKey: nil)
        #expect(Hex.encode(handover.infoBytes) == "837368747470733a2f2f6578616d706c652e636f6d616ef6")
        #expect(SessionTranscript.openID4VPDCAPI(origin: "https://example.com", nonce: "n", jwkThumbprint: nil)
            != SessionTranscript.openID4VPDCAPI(origin: "https://example.org", nonce: "n", jwkThumbprint: nil))
    }

    /// Annex C: `[null, null, ["dcapi", SHA-256(CBOR [encryptionInfo as sent, origin])]]`, written out by hand here.
    @Test func theAnnexCTranscriptHashesTheEncryptionInfoStringAsSentAndTheOrigin() {
        let info = "gmVkY2FwaQ"
        let origin = "https://a.example"
        let dcapiInfo: [UInt8] = [0x82, 0x6A] + Array(info.utf8) + [0x71] + Array(origin.utf8)
        #expect(DCAPIHandover(encryptionInfo: info, origin: origin).infoBytes == dcapiInfo)
        let expected: [UInt8] = [0x83, 0xF6, 0xF6, 0x82, 0x65] + Array("dcapi".utf8) + [0x58, 0x20] + sha256(dcapiInfo)
        #expect(SessionTranscript.dcapi(encryptionInfo: info, origin: origin).encoded == expected)
        #expect(SessionTranscript.dcapi(encryptionInfo: info, origin: "https://b.example").encoded != expected)
    }
}
