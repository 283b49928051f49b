import CBOR
import Foundation
import Testing
import TestSupport

/// Hostile and malformed input: each limit and each well-formedness rule of RFC 8949 §3 / Appendix F fails with its
/// own error code and the offset of the fault.
@Suite("Malformed and hostile input")
struct MalformedInputTests {
    private func failure(_ hex: String, options: CBOR.DecodingOptions = .default) -> CBORError? {
        do {
            _ = try CBOR.decode(hexBytes(hex), options: options)
            return nil
        } catch {
            return error
        }
    }

    @Test func truncatedInputIsUnexpectedEnd() {
        for hex in ["", "18", "19 01", "1a 0000", "1b 00000000000000", "c1", "9f 01", "bf 01 02", "5f 41 00", "f9 00",
                    "82 01 c1"] {
            #expect(failure(hex)?.code == "CBOR_UNEXPECTED_END", "\(hex)")
        }
    }

    @Test func declaredLengthBeyondInputIsRejectedWithoutAllocating() {
        // A byte string, a text string, an array and a map each claiming 2^63 items / bytes.
        for hex in ["5b 8000000000000000", "7b 8000000000000000", "9b 8000000000000000", "bb 8000000000000000",
                    "44 0102", "9a ffffffff 00", "82 01", "a1 01"] {
            let error = failure(hex)
            #expect(error?.code == "CBOR_LENGTH_EXCEEDS_INPUT", "\(hex)")
            #expect(error?.offset == 0)
        }
    }

    @Test func reservedAdditionalInformationIsRejected() {
        for hex in ["1c", "1d", "1e", "3c", "5c", "7d", "9e", "bc", "dc", "fc", "fd", "fe"] {
            let error = failure(hex)
            #expect(error?.code == "CBOR_RESERVED_ADDITIONAL_INFO", "\(hex)")
            #expect(error?.offset == 0)
        }
    }

    @Test func breakOutsideIndefiniteItemIsRejected() {
        #expect(failure("ff")?.code == "CBOR_UNEXPECTED_BREAK")
        #expect(failure("82 01 ff")?.code == "CBOR_UNEXPECTED_BREAK")
        #expect(failure("82 01 ff")?.offset == 2)
        // A break where a map value should be.
        #expect(failure("bf 01 ff")?.code == "CBOR_UNEXPECTED_BREAK")
        #expect(failure("bf 01 ff")?.offset == 2)
    }

    @Test func indefiniteLengthOnIntegersAndTagsIsRejected() {
        for hex in ["1f", "3f", "df 00"] {
            #expect(failure(hex)?.code == "CBOR_INDEFINITE_LENGTH_NOT_ALLOWED", "\(hex)")
        }
    }

    @Test func indefiniteStringChunkOfWrongTypeIsRejected() {
        // Text chunk in a byte string, integer chunk, nested indefinite chunk, byte chunk in a text string.
        for hex in ["5f 61 61 ff", "5f 01 ff", "5f 5f ff ff", "7f 41 61 ff"] {
            let error = failure(hex)
            #expect(error?.code == "CBOR_INVALID_CHUNK", "\(hex)")
            #expect(error?.offset == 1)
        }
    }

    @Test func invalidUTF8IsRejected() {
        // Lone continuation byte, overlong "/", a surrogate, above U+10FFFF, truncated sequence, and a chunk that
        // splits a character (RFC 8949 §3.2.3).
        for hex in ["61 80", "62 c0af", "63 eda080", "64 f4908080", "62 e6b0", "7f 62 c3bc 61 e6 ff", "7f 61 c3 61 bc ff"] {
            #expect(failure(hex)?.code == "CBOR_INVALID_UTF8", "\(hex)")
        }
    }

    @Test func twoByteSimpleValueBelow32IsRejected() {
        #expect(failure("f8 00")?.code == "CBOR_INVALID_SIMPLE_VALUE")
        #expect(failure("f8 1f")?.code == "CBOR_INVALID_SIMPLE_VALUE")
        #expect(failure("f8 20") == nil)
    }

    @Test func duplicateMapKeysAreRejected() {
        // {1: 1, 1: 2}; the second key also as a non-shortest head; text keys; an indefinite string key equal to a
        // definite one; equal float keys in different widths; a map of 40 keys with one duplicate (the hashed path).
        var large = "b8 28"
        for key in 0..<39 { large += "18" + String(key + 30, radix: 16) + "00" }
        large += "18 2a 00" // key 42 = 30 + 12, already present
        for hex in ["a2 01 01 01 02", "a2 01 01 1801 02", "a2 6161 01 6161 02", "a2 6161 01 7f6161ff 02",
                    "a2 f93c00 01 fb3ff0000000000000 02", "bf 01 01 01 02 ff", large] {
            let error = failure(hex)
            #expect(error?.code == "CBOR_DUPLICATE_MAP_KEY", "\(hex)")
        }
        #expect(failure("a2 01 01 01 02")?.offset == 3)
        #expect(failure("a2 01 01 01 02", options: .init(rejectsDuplicateMapKeys: false)) == nil)
    }

    /// Maps of more than 16 integer keys (an MSO's digestIDs) are checked by value: out of order, with negative keys,
    /// with a key written with a longer head; a duplicate is reported at the later key.
    @Test func integerKeyedMapsAreCheckedByValue() throws {
        // 20 keys 19, 18, …, 0 (descending, so sorted first), each with value 0.
        var descending = "b4"
        for key in (0..<20).reversed() { descending += String(format: "%02x", key) + "00" }
        #expect(failure(descending) == nil)
        // The same with key 7 replaced by 3 (written "18 03", a longer head): a duplicate at that later key.
        var repeated = "b4"
        var offsets: [Int: Int] = [:]
        var offset = 1
        for key in (0..<20).reversed() {
            offsets[key] = offset
            if key == 7 {
                repeated += "1803 00"
                offset += 3
            } else {
                repeated += String(format: "%02x", key) + "00"
                offset += 2
            }
        }
        let error = failure(repeated)
        #expect(error?.code == "CBOR_DUPLICATE_MAP_KEY")
        #expect(error?.offset == offsets[3])
        // Negative and unsigned keys with the same arguments are distinct: -1…-10 (0x20…0x29) and 0…9.
        var mixed = "b4"
        for argument in 0..<10 { mixed += String(format: "%02x", 0x20 + argument) + "00" + String(format: "%02x", argument) + "00" }
        #expect(failure(mixed) == nil)
        // -5 twice (0x24, then "38 04"), among the same keys otherwise.
        let negativeRepeated = mixed.replacingOccurrences(of: "2900", with: "380400")
        #expect(failure(negativeRepeated)?.code == "CBOR_DUPLICATE_MAP_KEY")
        // An integer key beside a text key goes the hashed way and still finds the duplicate integer.
        var withText = "b4 6161 00"
        for key in 0..<18 { withText += String(format: "%02x", key) + "00" }
        withText += "05 00"
        #expect(failure(withText)?.code == "CBOR_DUPLICATE_MAP_KEY")
    }

    @Test func distinctKeysThatLookAlikeAreAccepted() {
        // 1 and -2 (same argument, other major type), "a" and h'61', 1 and 1.0.
        #expect(failure("a3 01 00 21 00 6161 00") == nil)
        #expect(failure("a2 6161 00 4161 00") == nil)
        #expect(failure("a2 01 00 f93c00 00") == nil)
    }

    @Test func trailingBytesAreRejectedUnlessReadingASequenceOrPrefix() throws {
        let error = failure("01 02")
        #expect(error?.code == "CBOR_TRAILING_BYTES")
        #expect(error?.offset == 1)
        let sequence = try CBOR.decodeSequence(hexBytes("01 02 6161"))
        #expect(sequence.map(\.diagnosticNotation) == ["1", "2", "\"a\""])
        #expect(try CBOR.decodeSequence([]).isEmpty)
        let prefix = try CBOR.decodePrefix(hexBytes("8201 02 ff ff"))
        #expect(prefix.byteRange == 0..<3)
    }

    @Test func nestingDeeperThanTheLimitIsRejected() throws {
        let deep = [UInt8](repeating: 0x81, count: 65) + [0x00]
        let error = try #require(failure(hexString(deep)))
        #expect(error.code == "CBOR_DEPTH_LIMIT_EXCEEDED")
        #expect(error.offset == 64)
        #expect(failure(hexString([UInt8](repeating: 0x81, count: 64) + [0x00])) == nil)
        #expect(failure(hexString([UInt8](repeating: 0xd8, count: 1) + [0x18] + [UInt8](repeating: 0x81, count: 64) + [0])) != nil)
        // Indefinite arrays and tags count too; a hostile 100 000-deep nest fails fast without exhausting the stack.
        #expect(failure(String(repeating: "9f", count: 100_000))?.code == "CBOR_DEPTH_LIMIT_EXCEEDED")
        #expect(failure(String(repeating: "c1", count: 100_000))?.code == "CBOR_DEPTH_LIMIT_EXCEEDED")
        #expect(failure("818100", options: .init(maximumDepth: 1))?.code == "CBOR_DEPTH_LIMIT_EXCEEDED")
    }

    @Test func moreItemsThanTheLimitAreRejected() {
        let options = CBOR.DecodingOptions(maximumItemCount: 10)
        #expect(failure("8a 00010203040506070809", options: options)?.code == "CBOR_ITEM_LIMIT_EXCEEDED")
        #expect(failure("89 000102030405060708", options: options) == nil)
        #expect(failure("5f 41 00 41 00 41 00 41 00 41 00 41 00 41 00 41 00 41 00 41 00 ff", options: options)?.code
                == "CBOR_ITEM_LIMIT_EXCEEDED")
    }

    @Test func inputLongerThanTheLimitIsRejected() {
        #expect(failure("43 010203", options: .init(maximumInputLength: 3))?.code == "CBOR_INPUT_TOO_LARGE")
    }

    @Test func errorsDescribeThemselves() {
        let error = CBORError.lengthExceedsInput(offset: 4, declared: 9, remaining: 2)
        #expect(error.description == "CBOR_LENGTH_EXCEEDS_INPUT: declared length 9 exceeds the 2 bytes that remain at byte 4")
    }
}
