@testable import HoldfastServer
import Testing

/// DESIGN §4 "Randomness": what the server's `RandomSource` draws.
@Suite struct RandomSourceTests {
    /// Bytes counted out from a fixed script, so that what is drawn from them is known.
    struct ScriptedSource: RandomSource {
        let byte: UInt8
        func bytes(_ count: Int) -> [UInt8] { [UInt8](repeating: byte, count: count) }
    }

    @Test func systemSourceGivesTheCountAskedAndDiffersBetweenDraws() {
        let source = SystemRandomSource()
        for count in [0, 1, 7, 8, 9, 33] { #expect(source.bytes(count).count == count) }
        #expect(source.bytes(32) != source.bytes(32))
    }

    @Test func identifierIsAVersion4UUIDInLowerCase() {
        let all = ScriptedSource(byte: 0xFF).identifier()
        #expect(all == "ffffffff-ffff-4fff-bfff-ffffffffffff")
        let none = ScriptedSource(byte: 0x00).identifier()
        #expect(none == "00000000-0000-4000-8000-000000000000")
        let drawn = SystemRandomSource().identifier()
        #expect(drawn == drawn.lowercased())
        #expect(Array(drawn)[14] == "4")
    }

    @Test func integerStaysInItsRange() {
        let source = SystemRandomSource()
        for _ in 0..<1_000 { #expect((5..<12).contains(source.integer(in: 5..<12))) }
        #expect(ScriptedSource(byte: 0).integer(in: 3..<4) == 3)
        #expect(ScriptedSource(byte: 0x01).integer(in: 0..<256) == 1)
    }
}
