import Foundation
import HoldfastProtocol
import Testing

/// RFC 3986 §2.1 percent-encoding, as the SDK, the server and the admin client write URLs.
struct PercentEncodingTests {
    /// §2.3: the unreserved characters are never encoded; a value made only of them is returned as is.
    @Test func unreservedCharactersAreKept() {
        let unreserved = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~"
        #expect(PercentEncoding.pathSegment(unreserved) == unreserved)
        #expect(PercentEncoding.queryValue(unreserved) == unreserved)
    }

    /// A path segment: `/` and every reserved or other character is encoded, byte by byte over UTF-8, with
    /// uppercase hex digits (§2.1), so that an id is exactly one segment.
    @Test(arguments: [("a/b", "a%2Fb"), ("..", ".."), ("a b", "a%20b"), ("%", "%25"), ("?#[]@", "%3F%23%5B%5D%40"),
                      ("é", "%C3%A9"), ("😀", "%F0%9F%98%80"), ("", "")])
    func pathSegment(input: String, expected: String) {
        #expect(PercentEncoding.pathSegment(input) == expected)
    }

    /// A query value: the separators of a query (`&`, `=`, `+`) and of a URL (`:`, `/`) are encoded, so a URL or
    /// JSON can be passed as one value (a credential offer, a `request_uri`).
    @Test func queryValueEncodesTheQuerySeparators() {
        #expect(PercentEncoding.queryValue("https://v.example/r?a=1&b=2+3") == "https%3A%2F%2Fv.example%2Fr%3Fa%3D1%26b%3D2%2B3")
        #expect(PercentEncoding.queryValue(#"{"grants":{}}"#) == "%7B%22grants%22%3A%7B%7D%7D")
    }

    /// `application/x-www-form-urlencoded` (WHATWG URL urlencoded serializer): `*-._` and alphanumerics kept,
    /// a space as `+`, `~` and everything else encoded.
    @Test(arguments: [("a b", "a+b"), ("*-._", "*-._"), ("~", "%7E"), ("a+b", "a%2Bb"), ("a=b&c", "a%3Db%26c"),
                      ("urn:ietf:params:oauth:grant-type:pre-authorized_code",
                       "urn%3Aietf%3Aparams%3Aoauth%3Agrant-type%3Apre-authorized_code"),
                      ("é", "%C3%A9")])
    func formValue(input: String, expected: String) {
        #expect(PercentEncoding.formValue(input) == expected)
    }

    /// A form body: each name and value encoded as a form value, pairs joined by `&` in the order given.
    @Test func aFormBodyEncodesEachNameAndValue() {
        #expect(PercentEncoding.formBody([(name: "grant_type", value: "urn:x"), (name: "tx_code", value: "49 3&"), (name: "a b", value: "")])
            == "grant_type=urn%3Ax&tx_code=49+3%26&a+b=")
        #expect(PercentEncoding.formBody([]) == "")
    }


    /// Foundation's `addingPercentEncoding` with the same sets is the oracle: every ASCII character and a few
    /// multi-byte ones encode as it encodes them.
    @Test func foundationAgreesOnEveryASCIICharacter() {
        let unreserved = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
        let formSafe = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._*")
        let samples = (0..<128).map { String(UnicodeScalar(UInt8($0))) } + ["é", "ß", "€", "😀", "a b/c?d=e&f"]
        for sample in samples {
            #expect(PercentEncoding.pathSegment(sample) == sample.addingPercentEncoding(withAllowedCharacters: unreserved))
            #expect(PercentEncoding.queryValue(sample) == sample.addingPercentEncoding(withAllowedCharacters: unreserved))
            #expect(PercentEncoding.formValue(sample)
                    == sample.addingPercentEncoding(withAllowedCharacters: formSafe)?.replacingOccurrences(of: "%20", with: "+"))
        }
    }
}
