import COSE
import Crypto
import Testing
import TestSupport

@Suite("ECDSA signature encodings")
struct ECDSASignatureTests {
    @Test func rawAndDERConvertBothWaysLikeSwiftCrypto() throws {
        for _ in 0..<50 {
            let signature = try P256.Signing.PrivateKey().signature(for: [1, 2, 3])
            let raw = Array(signature.rawRepresentation)
            let der = try ECDSASignature.der(fromRaw: raw, componentLength: 32)
            #expect(der == Array(signature.derRepresentation))
            #expect(try ECDSASignature.raw(fromDER: der, componentLength: 32) == raw)
        }
        let p521 = try P521.Signing.PrivateKey().signature(for: [1])
        #expect(try ECDSASignature.der(fromRaw: Array(p521.rawRepresentation), componentLength: 66)
                == Array(p521.derRepresentation))
    }

    @Test func highBitIntegersGetALeadingZero() throws {
        let raw = [UInt8](repeating: 0x80, count: 32) + [0x00] * 31 + [0x01]
        #expect(try ECDSASignature.der(fromRaw: raw, componentLength: 32)
                == hexBytes("3026 0221 00" + String(repeating: "80", count: 32) + "0201 01"))
    }

    @Test func nonStrictDERIsRejected() {
        let cases = [
            "3006 0201 01 0201 01 00",       // trailing byte after the SEQUENCE
            "3007 0201 01 0201 01",          // SEQUENCE length too long
            "3006 0202 0001 0201 01",        // r not minimal
            "3006 0201 81 0201 01",          // r negative
            "3005 0200 0201 01",             // r empty
            "3106 0201 01 0201 01",          // not a SEQUENCE
            "3006 0401 01 0201 01",          // not an INTEGER
            "3081 06 0201 01 0201 01",       // long length form for a short length
            "3023 0221 01" + String(repeating: "00", count: 32) + "0201 01", // r longer than the curve
        ]
        for hex in cases {
            #expect(throws: COSEError.self, "\(hex)") { try ECDSASignature.raw(fromDER: hexBytes(hex), componentLength: 32) }
        }
    }

    @Test func rawOfTheWrongLengthOrZeroIsRejected() {
        #expect(throws: COSEError.self) { try ECDSASignature.der(fromRaw: [1, 2, 3], componentLength: 32) }
        #expect(throws: COSEError.self) { try ECDSASignature.der(fromRaw: [UInt8](repeating: 0, count: 64), componentLength: 32) }
    }
}

private func * (lhs: [UInt8], rhs: Int) -> [UInt8] { Array([[UInt8]](repeating: lhs, count: rhs).joined()) }
