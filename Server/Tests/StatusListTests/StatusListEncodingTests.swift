import CBOR
import Crypto
import Foundation
import JOSE
import StatusList
import Testing
import TestSupport

/// Every encoding example of the draft (shared/vectors/status-list/status_list_encoding*.json), both encodings and
/// all bit sizes, decoded; a million entries round-trip; the inflate bound holds.
@Suite struct StatusListEncodingTests {
    static let files = [
        "status_list_encoding_json.json", "status_list_encoding_cbor.json",
        "status_list_encoding2_json.json", "status_list_encoding2_cbor.json",
        "status_list_encoding1_long_json.json", "status_list_encoding1_long_cbor.json",
        "status_list_encoding2_long_json.json", "status_list_encoding2_long_cbor.json",
        "status_list_encoding4_json.json", "status_list_encoding4_cbor.json",
        "status_list_encoding8_json.json", "status_list_encoding8_cbor.json",
    ]

    /// The `{bits, lst}` of a vector, from its JSON `lst` or its CBOR map.
    static func compressedList(_ vector: [String: Any]) throws -> (bits: Int, lst: [UInt8]) {
        let bits = try #require(vector["bits"] as? Int)
        if let lst = vector["lst"] as? String { return (bits, try #require(Base64URL.decode(lst))) }
        let map = try CBORMapReader(hexBytes(try #require(vector["cborHex"] as? String)))
        #expect(map.bits == bits)
        return (bits, map.lst)
    }

    @Test(arguments: files) func decodesTheDraftExample(_ file: String) throws {
        let vector = try TestEnvironment.jsonVector("status-list/\(file)")
        let (bits, lst) = try Self.compressedList(vector)
        let list = try StatusList(bits: bits, compressed: lst)
        #expect(list.count == (try #require(vector["numberOfStatusEntries"] as? Int)))
        if let hex = vector["decompressedBytesHex"] as? String { #expect(list.bytes == hexBytes(hex)) }
        if let digest = vector["decompressedSha256"] as? String { #expect(hexString(SHA256.hash(data: list.bytes)) == digest) }
        let expected = try #require(vector["nonZeroStatuses"] as? [String: Int])
        for (index, value) in expected { #expect(try list.status(at: Int(index)!) == UInt8(value), "\(file) index \(index)") }
        // Every other status is 0.
        let counts = list.valueCounts()
        #expect(counts.filter { $0.key != 0 }.values.reduce(0, +) == expected.filter { $0.value != 0 }.count)
        // Re-compressing gives a list that decodes to the same bytes.
        #expect(try StatusList(bits: bits, compressed: list.compressed()).bytes == list.bytes)
    }

    @Test func aMillionEntriesRoundTrip() throws {
        for bits in [1, 2, 4, 8] {
            var list = try StatusList(bits: bits, count: 1_000_000)
            var generator = SplitMix64(seed: UInt64(bits))
            var set: [Int: UInt8] = [:]
            for _ in 0..<2_000 {
                let index = Int(generator.next() % 1_000_000)
                let value = UInt8(truncatingIfNeeded: generator.next()) & UInt8((1 << bits) - 1)
                try list.setStatus(value, at: index)
                set[index] = value
            }
            let decoded = try StatusList(bits: bits, compressed: list.compressed())
            #expect(decoded == list)
            for (index, value) in set { #expect(try decoded.status(at: index) == value) }
        }
    }

    @Test func inflateIsBounded() throws {
        // 64 MiB of zeros compress to about 64 KiB; a reader bounded at 1 MiB stops at the bound.
        let bomb = try StatusList(bits: 1, count: 64 << 23).compressed()
        #expect(bomb.count < 100_000)
        #expect(throws: StatusListError.listTooLarge(limit: 1 << 20)) { try StatusList(bits: 1, compressed: bomb, maximumBytes: 1 << 20) }
    }

    /// The output buffer starts small and grows while the stream goes on; the bound is exact: a list of exactly
    /// the maximum decodes, one byte more is refused.
    @Test func inflateGrowsToTheBoundExactly() throws {
        var list = try StatusList(bits: 8, count: 3 << 20)
        try list.setStatus(7, at: (3 << 20) - 1)
        let compressed = list.compressed()
        #expect(compressed.count * 16 < 3 << 20)  // far past the first guess
        let decoded = try StatusList(bits: 8, compressed: compressed, maximumBytes: 3 << 20)
        #expect(decoded == list)
        #expect(try decoded.status(at: (3 << 20) - 1) == 7)
        #expect(throws: StatusListError.listTooLarge(limit: (3 << 20) - 1)) {
            try StatusList(bits: 8, compressed: compressed, maximumBytes: (3 << 20) - 1)
        }
    }

    @Test func brokenStreamsAreNamed() throws {
        let good = try StatusList(bits: 2, count: 4096).compressed()
        #expect(throws: StatusListError.self) { try StatusList(bits: 2, compressed: Array(good.dropLast(3))) }
        do {
            _ = try StatusList(bits: 2, compressed: Array(good.dropLast(3)))
        } catch {
            #expect(error.code == "STATUS_LIST_COMPRESSION_INVALID")
        }
        #expect(throws: StatusListError.self) { try StatusList(bits: 2, compressed: [0x01, 0x02, 0x03]) }
        #expect(throws: StatusListError.compressedListInvalid("bytes after the end of the zlib stream")) {
            try StatusList(bits: 2, compressed: good + [0x00])
        }
    }
}

/// Reads `{bits, lst}` from the CBOR of a draft example.
struct CBORMapReader {
    let bits: Int
    let lst: [UInt8]

    init(_ bytes: [UInt8]) throws {
        let item = try CBOR.decode(bytes)
        bits = try item.value(forKey: "bits").int()
        lst = Array(try item.value(forKey: "lst").bytes())
    }
}
