import Plumbing
import Testing

struct HexTests {
    /// RFC 4648 §10's BASE16 test vectors, in lowercase.
    @Test(arguments: [("", ""), ("f", "66"), ("fo", "666f"), ("foo", "666f6f"), ("foob", "666f6f62"),
                      ("fooba", "666f6f6261"), ("foobar", "666f6f626172")])
    func rfc4648Vectors(input: String, expected: String) {
        #expect(Hex.encode(Array(input.utf8)) == expected)
    }

    /// Every byte value, against the standard library's radix-16 formatting padded to two digits.
    @Test func everyByteIsTwoLowercaseDigits() {
        let bytes = (0...255).map { UInt8($0) }
        let expected = bytes.map { ($0 < 0x10 ? "0" : "") + String($0, radix: 16) }.joined()
        #expect(Hex.encode(bytes) == expected)
        #expect(Hex.encode(bytes[250...]) == "fafbfcfdfeff")
    }

    /// A sequence that is not a collection (a digest's prefix is one) gives the same text as its bytes.
    @Test func aSequenceEncodesAsItsBytes() {
        let bytes: [UInt8] = [0x00, 0x0f, 0xa0, 0xff, 0x10]
        #expect(Hex.encode(AnySequence(bytes.prefix(3))) == "000fa0")
    }

    @Test func digitsAreLowercaseUnlessAskedForUppercase() {
        #expect((0..<16).map { Hex.digit(UInt8($0)) } == Array("0123456789abcdef".utf8))
        #expect((0..<16).map { Hex.digit(UInt8($0), uppercase: true) } == Array("0123456789ABCDEF".utf8))
    }
}

