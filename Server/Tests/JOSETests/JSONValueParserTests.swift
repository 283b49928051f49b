import Crypto
import Foundation
@testable import JOSE
import Testing

/// The JSON reader and writer every JWS / JWT / DPoP header and claim set goes through (RFC 8259).
@Suite struct JSONValueParserTests {
    private func parse(_ text: String) throws -> JSONValue {
        try JSONValue(json: Array(text.utf8))
    }

    @Test func readsEveryKindOfValue() throws {
        let value = try parse(#" { "a" : [1, -2, 0, 1.5, -0.25e2, 2E+3, true, false, null, "x"], "b": {}, "c": [] } "#)
        #expect(value == .object([
            "a": .array([.integer(1), .integer(-2), .integer(0), .number(1.5), .number(-25), .number(2000), .bool(true),
                         .bool(false), .null, .string("x")]),
            "b": .object([:]), "c": .array([]),
        ]))
    }

    @Test func integersStayExactAndOthersAreDoubles() throws {
        #expect(try parse("9223372036854775807") == .integer(Int64.max))
        #expect(try parse("-9223372036854775808") == .integer(Int64.min))
        #expect(try parse("9223372036854775808") == .number(9_223_372_036_854_775_808))
        #expect(try parse("1.0") == .number(1))
        #expect(try parse("1700000000.5") == .number(1_700_000_000.5))
        #expect(try parse("-0") == .integer(0))
    }

    @Test func decodesEscapesAndUnicode() throws {
        #expect(try parse(#""\"\\\/\b\f\n\r\t""#) == .string("\"\\/\u{08}\u{0C}\n\r\t"))
        #expect(try parse(#""caf\u00e9 \u00E9""#) == .string("café é"))
        #expect(try parse(#""\ud83d\ude00 😀""#) == .string("😀 😀"))
        #expect(try parse(#""ab\u0000cd""#) == .string("ab\u{0}cd"))
    }

    @Test(arguments: [
        "", " ", "{", "}", "[1,]", "{\"a\":1,}", "{a:1}", "{'a':1}", "01", "1.", ".5", "+1", "-", "1e", "1e+",
        "NaN", "Infinity", "1e400", "-1e400", "tru", "nul", "true false", "{} x", "\"abc", "\"\\x\"", "\"\\u12\"",
        "\"\\ud800\"", "\"\\udc00\"", "\"\\ud800\\u0041\"", "{\"a\" 1}", "[1 2]", "{\"a\":1 \"b\":2}",
    ])
    func rejectsWhatIsNotJSON(_ text: String) {
        #expect(throws: JOSEError.self) { try parse(text) }
    }

    /// Long strings are scanned eight bytes at a time: a quote, a backslash or a control character at any position of
    /// a word still ends the run where it is.
    @Test func longStringsEndAtTheirFirstQuoteEscapeOrControlCharacter() throws {
        let run = String(repeating: "abcdefghijklmnopqrstuvwxyz0123456789-_", count: 4)
        for cut in 0 ..< 24 {
            let head = String(run.prefix(cut + 40)), tail = String(run.dropFirst(cut + 40))
            #expect(try parse("\"" + head + "\"") == .string(head))
            #expect(try parse("[\"" + head + "\",\"" + tail + "\"]") == .array([.string(head), .string(tail)]))
            #expect(try parse("\"" + head + "\\n" + tail + "\"") == .string(head + "\n" + tail))
            #expect(try parse("\"" + head + "é" + tail + "\"") == .string(head + "é" + tail))
            #expect(throws: JOSEError.self) { try parse("\"" + head + "\u{1F}" + tail + "\"") }
            #expect(throws: JOSEError.self) { try parse("\"" + head + "\t" + tail + "\"") }
            #expect(throws: JOSEError.self) { try parse("\"" + head + tail) }
        }
    }

    @Test func rejectsRawControlCharactersAndInvalidUTF8() {
        #expect(throws: JOSEError.self) { try JSONValue(json: Array("\"a\nb\"".utf8)) }
        #expect(throws: JOSEError.self) { try JSONValue(json: [0x22, 0xFF, 0x22]) }
        #expect(throws: JOSEError.self) { try JSONValue(json: [0x22, 0xC3, 0x22]) }
        #expect(throws: JOSEError.self) { try JSONValue(json: [0x22, 0x5C, 0x6E, 0xED, 0xA0, 0x80, 0x22]) }
    }

    /// RFC 7515 §5.2: a header with a repeated member (a second `alg`, a second `jwk`) is refused, not resolved.
    @Test func rejectsDuplicateMemberNames() {
        #expect(throws: JOSEError.self) { try parse(#"{"alg":"ES256","alg":"none"}"#) }
        #expect(throws: JOSEError.self) { try parse(#"{"a":{"b":1,"b":1}}"#) }
        #expect(throws: JOSEError.self) { try JSONValue.decodeObject(Array(#"{"typ":"a","typ":"b"}"#.utf8), part: "header") }
    }

    @Test func nestingIsBounded() throws {
        let deep = JSONValueParser.maximumDepth
        _ = try parse(String(repeating: "[", count: deep) + String(repeating: "]", count: deep))
        #expect(throws: JOSEError.self) {
            try parse(String(repeating: "[", count: deep + 1) + String(repeating: "]", count: deep + 1))
        }
        #expect(throws: JOSEError.self) { try parse(String(repeating: "{\"a\":", count: deep + 1) + "1" + String(repeating: "}", count: deep + 1)) }
    }

    @Test func aJSONObjectIsRequiredWhereOneIsExpected() {
        #expect(throws: JOSEError.self) { try JSONValue.decodeObject(Array("[1]".utf8), part: "header") }
        #expect(throws: JOSEError.self) { try JSONValue.decodeObject(Array("\"x\"".utf8), part: "header") }
    }

    @Test func writesCompactSortedAndEscaped() throws {
        let value = JSONValue.object([
            "b": .string("a/b \"q\" \\ \n\t\u{01} é"), "a": .array([.integer(-3), .number(0.5), .number(2), .null, .bool(true)]),
            "B": .object([:]), "é": .string(""),
        ])
        let text = String(decoding: try value.jsonBytes(), as: UTF8.self)
        #expect(text == #"{"B":{},"a":[-3,0.5,2,null,true],"b":"a/b \"q\" \\ \n\t\u0001 é","é":""}"#)
        #expect(throws: JOSEError.self) { try JSONValue.number(.infinity).jsonBytes() }
        #expect(throws: JOSEError.self) { try JSONValue.array([.number(.nan)]).jsonBytes() }
    }

    /// What we write, Foundation reads as the same value, and we read back exactly.
    @Test func randomValuesRoundTripAndFoundationAgrees() throws {
        var generator = SystemRandomNumberGenerator()
        for _ in 0 ..< 300 {
            let value = Self.randomValue(depth: 0, using: &generator)
            let bytes = try value.jsonBytes()
            #expect(try JSONValue(json: bytes) == value)
            let foundation = try JSONDecoder().decode(JSONValue.self, from: Data(bytes))
            #expect(foundation == value, "\(String(decoding: bytes, as: UTF8.self))")
        }
    }

    private static func randomValue(depth: Int, using generator: inout SystemRandomNumberGenerator) -> JSONValue {
        let kind = Int.random(in: 0 ..< (depth >= 3 ? 5 : 7), using: &generator)
        switch kind {
        case 0: return .null
        case 1: return .bool(Bool.random(using: &generator))
        case 2: return .integer(Int64.random(in: .min ... .max, using: &generator))
        case 3: return .number(Double(Int.random(in: -1000 ... 1000, using: &generator)) + 0.25)
        case 4: return .string(randomString(using: &generator))
        case 5: return .array((0 ..< Int.random(in: 0 ... 4, using: &generator)).map { _ in randomValue(depth: depth + 1, using: &generator) })
        default:
            var members: [String: JSONValue] = [:]
            for _ in 0 ..< Int.random(in: 0 ... 4, using: &generator) {
                members[randomString(using: &generator)] = randomValue(depth: depth + 1, using: &generator)
            }
            return .object(members)
        }
    }

    private static func randomString(using generator: inout SystemRandomNumberGenerator) -> String {
        let alphabet: [Unicode.Scalar] = ["a", "Z", "0", " ", "\"", "\\", "/", "\n", "\u{0}", "\u{1F}", "é", "€", "😀", "\u{7F}"]
        var text = ""
        for _ in 0 ..< Int.random(in: 0 ... 8, using: &generator) {
            text.unicodeScalars.append(alphabet.randomElement(using: &generator)!)
        }
        return text
    }

    @Test func aJWKMemberConvertsBothWaysWithoutItsPrivatePart() throws {
        let key = JWK(privateKey: P256.Signing.PrivateKey(), kid: "k1")
        let value = key.publicKey.publicJSONValue
        guard case .object(let members) = value else { Issue.record("not an object"); return }
        #expect(members["d"] == nil)
        #expect(Set(members.keys) == ["kty", "crv", "x", "y", "kid"])
        #expect(try JWK(jsonValue: value) == key.publicKey)
        #expect(throws: JOSEError.self) { try JWK(jsonValue: .object(["kty": .string("EC"), "x": .integer(1)])) }
        #expect(throws: JOSEError.self) { try JWK(jsonValue: .object(["crv": .string("P-256")])) }
        #expect(try JWK(jsonValue: .object(["kty": .string("EC"), "kid": .null])).kid == nil)
    }
}

/// Splitting compact serializations by bytes.
@Suite struct CompactSerializationTests {
    @Test func segmentsAreSplitAtEveryDotUpToTheLimit() {
        #expect(CompactSerialization.segments(of: "a.b.c", limit: 3) == ["a", "b", "c"])
        #expect(CompactSerialization.segments(of: "a..c", limit: 3) == ["a", "", "c"])
        #expect(CompactSerialization.segments(of: "", limit: 3) == [""])
        #expect(CompactSerialization.segments(of: "abc", limit: 3) == ["abc"])
        #expect(CompactSerialization.segments(of: "é.ü.x", limit: 3) == ["é", "ü", "x"])
        // Past the limit only one more segment is made, whatever follows.
        #expect(CompactSerialization.segments(of: String(repeating: ".", count: 10_000), limit: 3).count == 4)
        #expect(CompactSerialization.segments(of: "a.b.c.d.e", limit: 5) == ["a", "b", "c", "d", "e"])
    }

    @Test func aJWSWithMoreThanThreeSegmentsIsMalformed() {
        #expect(throws: JOSEError.self) { try JWS(compactSerialization: "a.b.c.d") }
        #expect(throws: JOSEError.self) { try JWS(compactSerialization: "a.b") }
    }
}
