import JOSE
import Testing

@Suite struct Base64URLTests {
    @Test func encodesWithoutPaddingInTheURLSafeAlphabet() {
        #expect(Base64URL.encode([0xFB, 0xFF]) == "-_8")
        #expect(Base64URL.encode(Array("Alice".utf8)) == "QWxpY2U")
        #expect(Base64URL.encode([]) == "")
    }

    @Test func roundTripsEveryLength() {
        for length in 0 ..< 40 {
            let bytes = (0 ..< length).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }
            #expect(Base64URL.decode(Base64URL.encode(bytes)) == bytes)
        }
    }

    @Test func rejectsPadding() {
        #expect(Base64URL.decode("QWxpY2U=") == nil)
    }

    @Test func rejectsCharactersOutsideTheAlphabet() {
        #expect(Base64URL.decode("+/8") == nil)
        #expect(Base64URL.decode("QW xp") == nil)
        #expect(Base64URL.decode("QWxpY2é") == nil)
    }

    @Test func rejectsImpossibleLengths() {
        #expect(Base64URL.decode("QWxpY") == nil)
    }

    @Test func rejectsNonZeroTrailingBits() {
        // "QWxpY2U" is canonical; "QWxpY2V" decodes to the same bytes with a non-zero leftover bit.
        #expect(Base64URL.decode("QWxpY2V") == nil)
    }
}
