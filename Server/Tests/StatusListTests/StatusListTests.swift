import Foundation
import StatusList
import Testing
import TestSupport

@Suite struct StatusListTests {
    /// The EUDI statium read cases (shared/vectors/status-list/eudi-statium-read-status-cases.json).
    @Test func readsEveryStatiumCase() throws {
        let file = try TestEnvironment.jsonVector("status-list/eudi-statium-read-status-cases.json")
        let cases = try #require(file["cases"] as? [[String: Any]])
        #expect(cases.count >= 7)
        for testCase in cases {
            let bits = try #require(testCase["bits"] as? Int)
            let list = try StatusList(bits: bits, bytes: hexBytes(try #require(testCase["bytesHex"] as? String)))
            let expected = try #require(testCase["expected"] as? [String: Any])
            for (key, value) in expected {
                let index = try #require(Int(key))
                if let status = value as? Int {
                    #expect(try list.status(at: index) == UInt8(status), "bits \(bits) index \(index)")
                } else {
                    #expect(throws: StatusListError.indexOutOfRange(index)) { try list.status(at: index) }
                }
            }
        }
    }

    /// draft §4.1 example: 1-bit statuses 1,0,0,1,1,1,0,1 / 1,1,1,0,0,0,1,0 pack to b9 a3.
    @Test func packsLeastSignificantBitFirst() throws {
        var list = try StatusList(bits: 1, count: 16)
        for index in [0, 3, 4, 5, 7, 8, 9, 13, 15] { try list.setStatus(1, at: index) }
        #expect(list.bytes == [0xB9, 0xA3])
    }

    @Test func setThenGetRoundTripsForEveryWidth() throws {
        for bits in [1, 2, 4, 8] {
            var list = try StatusList(bits: bits, count: 100)
            let top = UInt8(bits == 8 ? 255 : (1 << bits) - 1)
            for index in 0..<100 { try list.setStatus(UInt8(index % Int(top) + 1) & top, at: index) }
            for index in 0..<100 { #expect(try list.status(at: index) == UInt8(index % Int(top) + 1) & top) }
            try list.setStatus(0, at: 50)
            #expect(try list.status(at: 50) == 0)
            #expect(try list.status(at: 49) == UInt8(49 % Int(top) + 1) & top)
        }
    }

    @Test func rejectsUnsupportedBits() {
        #expect(throws: StatusListError.unsupportedBits(3)) { try StatusList(bits: 3, count: 8) }
    }

    @Test func rejectsValueWiderThanBits() throws {
        var list = try StatusList(bits: 2, count: 4)
        #expect(throws: StatusListError.valueTooLarge(4, bits: 2)) { try list.setStatus(4, at: 0) }
    }

    @Test func rejectsIndexPastEnd() throws {
        let list = try StatusList(bits: 4, count: 3)  // rounds up to 2 bytes = 4 statuses
        #expect(list.count == 4)
        #expect(throws: StatusListError.indexOutOfRange(4)) { try list.status(at: 4) }
    }
}
