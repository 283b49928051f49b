import CBOR
import Testing
import TestSupport

/// Typed access fails with what was expected, what was found and where.
@Suite("Typed access")
struct TypedAccessTests {
    let document: CBOR.Decoded

    init() throws {
        // {"name": "Ada", 1: -7, "data": h'0102', "list": [true, 1.5], "big": 18446744073709551615}
        document = try CBOR.decode(CBOR.map([
            "name": "Ada", 1: -7, "data": .bytes([1, 2]), "list": [true, 1.5], "big": .unsigned(.max),
        ]).encoded())
    }

    @Test func accessorsReturnTypedValues() throws {
        #expect(try document.value(forKey: "name").text() == "Ada")
        #expect(try document.value(forKey: 1).int() == -7)
        #expect(Array(try document.value(forKey: "data").bytes()) == [1, 2])
        #expect(try document.value(forKey: "list").element(0).bool() == true)
        #expect(try document.value(forKey: "list").element(1).double() == 1.5)
        #expect(try document.value(forKey: "big").uint64() == .max)
        #expect(document["missing"] == nil)
        #expect(try document.map().count == 5)
        #expect(document.value["name"] == "Ada")
        #expect(try document.value.value(forKey: 1).int() == -7)
    }

    @Test func typeMismatchNamesExpectedFoundAndOffset() throws {
        let name = try document.value(forKey: "name")
        #expect(throws: CBORError.typeMismatch(expected: "byte string", found: "text string", offset: name.offset)) {
            try name.bytes()
        }
        #expect(name.offset == 6)
        #expect(throws: CBORError.typeMismatch(expected: "map", found: "array", offset: 25)) {
            try document.value(forKey: "list").map()
        }
    }

    @Test func missingKeyAndIndexAreReported() throws {
        #expect(throws: CBORError.missingKey("\"nope\"", offset: 0)) { try document.value(forKey: "nope") }
        #expect(throws: CBORError.indexOutOfRange(index: 2, count: 2, offset: 25)) {
            try document.value(forKey: "list").element(2)
        }
    }

    @Test func integersThatDoNotFitAreRejected() throws {
        #expect(throws: CBORError.integerOutOfRange("Int64", offset: 34)) { try document.value(forKey: "big").int() }
        #expect(try CBOR.decode(hexBytes("3b7fffffffffffffff")).int64() == .min)
        #expect(throws: CBORError.self) { try CBOR.decode(hexBytes("3b8000000000000000")).int64() }
    }

    @Test func tagsAreCheckedByNumber() throws {
        let tagged = try CBOR.decode(hexBytes("c11a514b67b0"))
        #expect(try tagged.content(ofTag: 1).int() == 1_363_896_240)
        #expect(throws: CBORError.typeMismatch(expected: "tag 0", found: "tag 1", offset: 0)) { try tagged.content(ofTag: 0) }
    }

    @Test func indefiniteStringsReadAsTheirWhole() throws {
        #expect(Array(try CBOR.decode(hexBytes("5f42010243030405ff")).bytes()) == [1, 2, 3, 4, 5])
        #expect(try CBOR.decode(hexBytes("7f657374726561646d696e67ff")).text() == "streaming")
        #expect(try CBOR.decode(hexBytes("bf6161 01 ff"))["a"]?.int() == 1)
    }

    @Test func mapLookupComparesKeysInTheDataModel() throws {
        // Key 1 encoded as 0x1801 (not shortest) is still key 1.
        #expect(try CBOR.decode(hexBytes("a1 1801 02"))[1]?.int() == 2)
    }
}
