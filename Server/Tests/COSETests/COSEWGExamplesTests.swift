import CBOR
import COSE
import Foundation
import Testing
import TestSupport

/// A COSE WG example: the signer's key (JWK coordinates, base64url), the external AAD, the expected ToBeSigned, and
/// the COSE_Sign1 bytes.
struct COSEWGExample: Sendable, CustomTestStringConvertible {
    let file: String
    let curve: COSEKey.Curve
    let x: String
    let y: String
    let externalAAD: String
    let toBeSigned: String
    let cose: String
    var testDescription: String { file }
}

private let p256X = "usWxHK2PmfnHKwXPS54m0kTcGJ90UiglWiGahtagnv8"
private let p256Y = "IBOL-C3BttVivg-lSreASjpkttcsz-1rb7btKLv8EX4"

// Source: github.com/cose-wg/Examples at commit 53c9d634333bb4f529d78f5980fffa2667ee2c12 — the files named below
// (input.sign0.key, input.sign0.external, intermediates.ToBeSign_hex, output.cbor).
let coseWGValid: [COSEWGExample] = [
    .init(file: "ecdsa-examples/ecdsa-sig-01.json (ES256, ctyp 0)", curve: .p256, x: p256X, y: p256Y, externalAAD: "",
          toBeSigned: "846A5369676E61747572653145A2012603004054546869732069732074686520636F6E74656E742E",
          cose: "D28445A201260300A10442313154546869732069732074686520636F6E74656E742E58406520BBAF2081D7E0ED0F95F76EB0733D667005F7467CEC4B87B9381A6BA1EDE8E00DF29F32A37230F39A842A54821FDD223092819D7728EFB9D3A0080B75380B"),
    .init(file: "ecdsa-examples/ecdsa-sig-02.json (ES384)", curve: .p384,
          x: "kTJyP2KSsBBhnb4kjWmMF7WHVsY55xUPgb7k64rDcjatChoZ1nvjKmYmPh5STRKc",
          y: "mM0weMVU2DKsYDxDJkEP9hZiRZtB8fPfXbzINZj_fF7YQRynNWedHEyzAJOX2e8s", externalAAD: "",
          toBeSigned: "846A5369676E61747572653144A10138224054546869732069732074686520636F6E74656E742E",
          cose: "D28444A1013822A104445033383454546869732069732074686520636F6E74656E742E58605F150ABD1C7D25B32065A14E05D6CB1F665D10769FF455EA9A2E0ADAB5DE63838DB257F0949C41E13330E110EBA7B912F34E1546FB1366A2568FAA91EC3E6C8D42F4A67A0EDF731D88C9AEAD52258B2E2C4740EF614F02E9D91E9B7B59622A3C"),
    .init(file: "ecdsa-examples/ecdsa-sig-03.json (ES512)", curve: .p521,
          x: "AHKZLLOsCOzz5cY97ewNUajB957y-C-U88c3v13nmGZx6sYl_oJXu9A5RkTKqjqvjyekWF-7ytDyRXYgCF5cj0Kt",
          y: "AdymlHvOiLxXkEhayXQnNCvDX4h9htZaCJN34kfmC6pV5OhQHiraVySsUdaQkAgDPrwQrJmbnX9cwlGfP-HqHZR1", externalAAD: "",
          toBeSigned: "846A5369676E61747572653144A10138234054546869732069732074686520636F6E74656E742E",
          cose: "D28444A1013823A104581E62696C626F2E62616767696E7340686F626269746F6E2E6578616D706C6554546869732069732074686520636F6E74656E742E588401664DD6962091B5100D6E1833D503539330EC2BC8FD3E8996950CE9F70259D9A30F73794F603B0D3E7C5E9C4C2A57E10211F76E79DF8FFD1B79D7EF5B9FA7DA109001965FA2D37E093BB13C040399C467B3B9908C09DB2B0F1F4996FE07BB02AAA121A8E1C671F3F997ADE7D651081017057BD3A8A5FBF394972EA71CFDC15E6F8FE2E1"),
    .init(file: "sign1-tests/sign-pass-01.json (protected h'a0', alg unprotected)", curve: .p256, x: p256X, y: p256Y,
          externalAAD: "", toBeSigned: "846A5369676E617475726531404054546869732069732074686520636F6E74656E742E",
          cose: "D28441A0A201260442313154546869732069732074686520636F6E74656E742E584087DB0D2E5571843B78AC33ECB2830DF7B6E0A4D5B7376DE336B23C591C90C425317E56127FBE04370097CE347087B233BF722B64072BEB4486BDA4031D27244F"),
    .init(file: "sign1-tests/sign-pass-02.json (external AAD)", curve: .p256, x: p256X, y: p256Y,
          externalAAD: "11aa22bb33cc44dd55006699",
          toBeSigned: "846A5369676E61747572653143A101264C11AA22BB33CC44DD5500669954546869732069732074686520636F6E74656E742E",
          cose: "D28443A10126A10442313154546869732069732074686520636F6E74656E742E584010729CD711CB3813D8D8E944A8DA7111E7B258C9BDCA6135F7AE1ADBEE9509891267837E1E33BD36C150326AE62755C6BD8E540C3E8F92D7D225E8DB72B8820B"),
    .init(file: "sign1-tests/sign-pass-03.json (untagged)", curve: .p256, x: p256X, y: p256Y, externalAAD: "",
          toBeSigned: "846A5369676E61747572653143A101264054546869732069732074686520636F6E74656E742E",
          cose: "8443A10126A10442313154546869732069732074686520636F6E74656E742E58408EB33E4CA31D1C465AB05AAC34CC6B23D58FEF5C083106C4D25A91AEF0B0117E2AF9A291AA32E14AB834DC56ED2A223444547E01F11D3B0916E5A4C345CACB36"),
]

func base64URL(_ text: String) -> [UInt8] {
    var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
    while base64.count % 4 != 0 { base64 += "=" }
    return Array(Data(base64Encoded: base64) ?? Data())
}

@Suite("COSE WG examples")
struct COSEWGExamplesTests {
    @Test("each valid example verifies with its key", arguments: coseWGValid)
    func validExampleVerifies(_ example: COSEWGExample) throws {
        let key = try COSEKey(curve: example.curve, x: base64URL(example.x), y: base64URL(example.y))
        let sign1 = try COSESign1(decoding: hexBytes(example.cose))
        let aad = hexBytes(example.externalAAD)
        // sign-pass-01 sends its empty protected header as h'a0' but signs the zero-length form (RFC 9052 §4.4).
        let signedProtected = sign1.protected.isEmpty ? [] : sign1.protectedBytes
        #expect(COSESign1.signatureStructure(protectedBytes: signedProtected, externalAAD: aad,
                                             payload: sign1.payload ?? []) == hexBytes(example.toBeSigned))
        try sign1.verify(using: key, externalAAD: aad)
        #expect(sign1.payload == Array("This is the content.".utf8))
        #expect(sign1.encoded(tagged: example.cose.hasPrefix("D2")) == hexBytes(example.cose),
                "re-encoding keeps the protected bytes as received")
    }

    @Test func exampleWithTheWrongExternalAADFails() throws {
        let example = coseWGValid[4]
        let key = try COSEKey(curve: .p256, x: base64URL(example.x), y: base64URL(example.y))
        #expect(throws: COSEError.signatureInvalid) { try COSESign1(decoding: hexBytes(example.cose)).verify(using: key) }
    }

    // Source: cose-wg/Examples sign1-tests/sign-fail-01 … -07 (same commit); each must be refused.
    @Test func failingExamplesAreRefused() throws {
        let key = try COSEKey(curve: .p256, x: base64URL(p256X), y: base64URL(p256Y))
        let signature = "58408EB33E4CA31D1C465AB05AAC34CC6B23D58FEF5C083106C4D25A91AEF0B0117E2AF9A291AA32E14AB834DC56ED2A223444547E01F11D3B0916E5A4C345CACB36"
        let cases: [(String, String)] = [
            ("sign-fail-01 wrong tag", "D903E68443A10126A10442313154546869732069732074686520636F6E74656E742E" + signature),
            ("sign-fail-02 changed content", "D28443A10126A10442313154546869732069732074686520636F6E74656E742F" + signature),
            ("sign-fail-03 alg -999", "D28445A1013903E6A10442313154546869732069732074686520636F6E74656E742E" + signature),
            ("sign-fail-04 alg \"unknown\"", "D2844AA10167756E6B6E6F776EA10442313154546869732069732074686520636F6E74656E742E" + signature),
            ("sign-fail-06 added protected attribute", "D28445A201260300A10442313154546869732069732074686520636F6E74656E742E" + signature),
            ("sign-fail-07 removed protected attribute", "D28443A10126A10442313154546869732069732074686520636F6E74656E742E58406520BBAF2081D7E0ED0F95F76EB0733D667005F7467CEC4B87B9381A6BA1EDE8E00DF29F32A37230F39A842A54821FDD223092819D7728EFB9D3A0080B75380B"),
        ]
        let expectedCodes = ["COSE_UNEXPECTED_TAG", "COSE_SIGNATURE_INVALID", "COSE_UNSUPPORTED_ALGORITHM",
                             "COSE_UNSUPPORTED_ALGORITHM", "COSE_SIGNATURE_INVALID", "COSE_SIGNATURE_INVALID"]
        for ((name, hex), code) in zip(cases, expectedCodes) {
            do {
                try COSESign1(decoding: hexBytes(hex)).verify(using: key)
                Issue.record("\(name) verified")
            } catch {
                #expect(error.code == code, "\(name)")
            }
        }
    }

    // Source: cose-wg/Examples ecdsa-examples/ecdsa-sig-04.json — ES512 (SHA-512) with a P-256 key. RFC 9053 §2.1
    // recommends the matching curve and this module enforces it, so the example is refused with a typed error.
    @Test func es512WithAP256KeyIsRefused() throws {
        let key = try COSEKey(curve: .p256, x: base64URL(p256X), y: base64URL(p256Y))
        let sign1 = try COSESign1(decoding: hexBytes("D28444A1013823A10442313154546869732069732074686520636F6E74656E742E5840EB18B84ED674284E5ED861C3943E101BED5DB9F560C0F0292B34362990D1C59B10DF7946CBC6CA3DCBD6C17A6DD1D711F50337BAA6B4FCFAE0EFC70E52C1DE0F"))
        #expect(throws: COSEError.keyAlgorithmMismatch(algorithm: "ES512", key: "P-256")) { try sign1.verify(using: key) }
    }
}
