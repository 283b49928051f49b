import CBOR
import Testing
import TestSupport

/// Raw bytes are never lost: signatures and digests are computed over bytes as received (STYLE habit 9).
@Suite("Raw-byte preservation")
struct RawBytesTests {
    @Test func nonCanonicalInputKeepsItsExactBytes() throws {
        // A map with unsorted keys, a non-shortest integer (0x1900 01), a double that fits in half, an indefinite
        // array, all nested in an array.
        let hex = "83 a2 6162 1900 01 6161 02 fb3ff8000000000000 9f 01 ff"
        let item = try CBOR.decode(hexBytes(hex))
        #expect(Array(item.rawBytes) == hexBytes(hex))
        let elements = try item.array()
        #expect(Array(elements[0].rawBytes) == hexBytes("a2 6162 1900 01 6161 02"))
        #expect(Array(try elements[0].value(forKey: "b").rawBytes) == hexBytes("1900 01"))
        #expect(try elements[0].value(forKey: "b").int() == 1)
        #expect(Array(elements[1].rawBytes) == hexBytes("fb3ff8000000000000"))
        #expect(Array(elements[2].rawBytes) == hexBytes("9f 01 ff"))
        #expect(elements[2].byteRange == 19..<22)
        #expect(item.value.encoded(deterministic: true) != hexBytes(hex), "re-encoding would change the bytes")
    }

    @Test func embeddedCBORKeepsBothBytesAndItem() throws {
        // 24(<<{"b": 1, "a": 2}>>) inside a map, as ISO 18013-5 IssuerSignedItemBytes are carried.
        let inner = hexBytes("a2 6162 01 6161 02")
        let outer = CBOR.map(["item": .tagged(24, .bytes(inner))]).encoded()
        let item = try CBOR.decode(outer)
        let tagged = try item.value(forKey: "item")
        #expect(Array(try #require(tagged.embeddedBytes)) == inner)
        let embedded = try tagged.embedded()
        #expect(Array(embedded.rawBytes) == inner)
        #expect(embedded.offset == outer.count - inner.count, "offsets are positions in the original input")
        #expect(try embedded.value(forKey: "a").int() == 2)
        #expect(embedded.diagnosticNotation == "{\"b\": 1, \"a\": 2}")
        #expect(tagged.diagnosticNotation == "24(h'a2616201616102')")
    }

    @Test func embeddedCBORThatIsMalformedFailsWithItsOffset() throws {
        let item = try CBOR.decode(hexBytes("d818 42 8201"))
        #expect(throws: CBORError.lengthExceedsInput(offset: 3, declared: 2, remaining: 1)) { try item.embedded() }
        #expect(throws: CBORError.self) { try CBOR.decode(hexBytes("d819 41 00")).embedded() }
    }

    @Test func sequenceItemsKeepTheirRanges() throws {
        let items = try CBOR.decodeSequence(hexBytes("1800 6161 80"))
        #expect(items.map(\.byteRange) == [0..<2, 2..<4, 4..<5])
        #expect(items.map { Array($0.rawBytes) } == [[0x18, 0x00], [0x61, 0x61], [0x80]])
    }
}
