import Foundation
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

    /// Against Foundation's decoder (standard alphabet, padded) on random bytes of every length up to 300, and
    /// every one-character corruption of a short text: the same bytes, or nil exactly where Foundation refuses or
    /// the encoding is not canonical.
    @Test func agreesWithFoundationsDecoder() {
        var generator = SystemRandomNumberGenerator()
        for length in 0 ..< 300 {
            let bytes = (0 ..< length).map { _ in UInt8.random(in: 0 ... 255, using: &generator) }
            let text = Base64URL.encode(bytes)
            #expect(Base64URL.decode(text) == bytes)
            #expect(Base64URL.decode(Substring(text)) == bytes)
        }
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_=+/ .".utf8)
        let original = Array(Base64URL.encode(Array("holdfast!".utf8)).utf8)
        for position in original.indices {
            for replacement in alphabet {
                var mutated = original
                mutated[position] = replacement
                let text = String(decoding: mutated, as: UTF8.self)
                let standard = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
                let foundation = text.contains(where: { "+/=. ".contains($0) }) ? nil : Data(base64Encoded: standard).map(Array.init)
                let ours = Base64URL.decode(text)
                if let ours { #expect(Base64URL.encode(ours) == text, "\(text)") }
                #expect(ours == foundation.flatMap { Base64URL.encode($0) == text ? $0 : nil }, "\(text)")
            }
        }
    }

    /// A kilobyte-long text with one character outside the alphabet at each position of its first, a middle and its
    /// last groups and of its tail is refused; the text itself decodes (the check is made once, after the groups).
    @Test func rejectsABadCharacterAnywhereInALongText() {
        let bytes = (0 ..< 1_000).map { UInt8(truncatingIfNeeded: $0 &* 131 &+ 7) }
        let text = Array(Base64URL.encode(bytes).utf8)
        #expect(text.count % 4 == 2)
        #expect(Base64URL.decode(String(decoding: text, as: UTF8.self)) == bytes)
        let middle = (text.count / 8) * 4
        let last = text.count - 2 - 4
        for position in Array(0 ..< 4) + Array(middle ..< middle + 4) + Array(last ..< last + 4) + [text.count - 2, text.count - 1] {
            for bad in Array("=+/ .".utf8) + [0x80, 0xFF] {
                var mutated = text
                mutated[position] = bad
                #expect(Base64URL.decode(String(decoding: mutated, as: UTF8.self)) == nil, "\(position) \(bad)")
            }
        }
    }
}
