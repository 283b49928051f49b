import MDoc
import OpenID4VP
import Plumbing
import Testing

/// The two online SessionTranscripts, byte for byte (vectors computed from the specs' CDDL with an independent CBOR
/// writer; `MDocPeerTests` also checks them against the Python peers' glue).
@Suite struct HandoverTests {
    static func hex(_ bytes: [UInt8]) -> String { Hex.encode(bytes) }

    /// OpenID4VP 1.0 Appendix B.2.6.1.
    @Test func theOpenID4VPHandoverHashesItsInfo() {
        let handover = OpenID4VPHandover(clientId: "x509_hash:Zm9v", nonce: "n0", jwkThumbprint: [0x0A, 0x0B], responseUri: "https://v.example/r")
        #expect(Self.hex(handover.infoBytes) == "846e783530395f686173683a5a6d3976626e30420a0b7368747470733a2f2f762e6578616d706c652f72")
        #expect(Self.hex(SessionTranscript.openID4VP(clientId: "x509_hash:Zm9v", nonce: "n0", jwkThumbprint: [0x0A, 0x0B],
                                                     responseUri: "https://v.example/r").encoded)
            == "83f6f682714f70656e494434565048616e646f76657258203643ccd2938087bbab171f96d6c54135301e54041e7a5b1490d4a5ab0f964f61")
        // No encryption key: the thumbprint is null.
        #expect(Self.hex(SessionTranscript.openID4VP(clientId: "x509_hash:Zm9v", nonce: "n0", jwkThumbprint: nil,
                                                     responseUri: "https://v.example/r").encoded)
            == "83f6f682714f70656e494434565048616e646f7665725820af4f3ed31aa770aadabff7538cfd6beca4bcb33ece91079c96a87da770d6657f")
    }

    /// ISO/IEC TS 18013-7:2024 Annex B.4.4.
    @Test func theISO18013_7HandoverHashesTheClientIdAndResponseUriWithTheMdocNonce() {
        #expect(Self.hex(SessionTranscript.iso18013_7(clientId: "v.example", responseUri: "https://v.example/r", nonce: "n1",
                                                      mdocGeneratedNonce: "mgn").encoded)
            == "83f6f68358209d4dbcc7ef383b2ecbe41e9e798a025f5fdd1b4f9d3c6cfb769c09a2784177325820200b08d5b9204235c9f415fe0288d089bda4f357e140bbc9046423c7164c1568626e31")
        let other = SessionTranscript.iso18013_7(clientId: "v.example", responseUri: "https://v.example/r", nonce: "n1", mdocGeneratedNonce: "mgm")
        #expect(Self.hex(other.encoded) != Self.hex(SessionTranscript.iso18013_7(clientId: "v.example", responseUri: "https://v.example/r",
                                                                                 nonce: "n1", mdocGeneratedNonce: "mgn").encoded))
    }
}
