import CBOR
import Testing
import TestSupport

@Suite("Diagnostic notation")
struct DiagnosticTests {
    @Test func floatsPrintLikeAppendixA() {
        let cases: [(Double, String)] = [
            (0.1, "0.1"), (1e21, "1.0e+21"), (1e20, "100000000000000000000.0"), (1e-7, "1.0e-7"),
            (0.000001, "0.000001"), (-123.456, "-123.456"), (2.5e-300, "2.5e-300"), (123456789.25, "123456789.25"),
        ]
        for (value, text) in cases {
            #expect(CBOR.float(value, .double).diagnosticNotation == text)
        }
    }

    @Test func bignumsPrintAsIntegersUpTo64Bytes() {
        #expect(CBOR.tagged(2, .bytes([])).diagnosticNotation == "0")
        #expect(CBOR.tagged(3, .bytes([])).diagnosticNotation == "-1")
        #expect(CBOR.tagged(3, .bytes([0xff, 0xff])).diagnosticNotation == "-65536")
        let long = CBOR.tagged(2, .bytes([UInt8](repeating: 1, count: 65)))
        #expect(long.diagnosticNotation.hasPrefix("2(h'0101"))
    }

    @Test func controlCharactersAreEscaped() {
        #expect(CBOR.text("a\nb\u{1}\u{7f}").diagnosticNotation == "\"a\\nb\\u0001\\u007f\"")
    }

    @Test func prettyFormShowsOneEntryPerLineAndEmbeddedCBORDecoded() {
        let value: CBOR = ["a": [1, 2], "e": .embedded(["x": h("0102")]), "empty": [], "t": "ü"]
        #expect(value.prettyDiagnostic() == """
        {
          "a": [
            1,
            2
          ],
          "e": 24(<<{
            "x": h'0102'
          }>>),
          "empty": [],
          "t": "ü"
        }
        """)
    }

    @Test func prettyFormLeavesMalformedEmbeddedBytesAsHex() {
        #expect(CBOR.tagged(24, .bytes([0x82, 0x01])).prettyDiagnostic() == "24(h'8201')")
    }

    private func h(_ hex: String) -> CBOR { .bytes(hexBytes(hex)) }
}
