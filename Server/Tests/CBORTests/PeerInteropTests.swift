import CBOR
import Testing
import TestSupport

/// Interop with cbor2 / cbor-diag (shared/peers/peer_cbor.py): what we encode they read, and our diagnostic notation
/// matches theirs on the items where both print the same way (cbor-diag adds encoding indicators to floats and
/// indefinite chunks and prints printable byte strings as text, so those kinds are left out).
@Suite("Peer interop (cbor2, cbor-diag)", .enabled(if: Peer.isAvailable, Peer.unavailableReason))
struct PeerInteropTests {
    private func randomComparable(_ generator: inout SeededGenerator, depth: Int = 0) -> CBOR {
        switch Int.random(in: 0..<(depth > 2 ? 6 : 9), using: &generator) {
        case 0: return .unsigned(UInt64.random(in: 0...UInt64.max, using: &generator) >> UInt64.random(in: 0...63, using: &generator))
        case 1: return .negative(UInt64.random(in: 0...UInt64.max, using: &generator) >> UInt64.random(in: 0...63, using: &generator))
        case 2: return .text(String((0..<Int.random(in: 0..<8, using: &generator)).map { _ in
            Character(Unicode.Scalar(UInt8.random(in: 0x30...0x7a, using: &generator)))
        }).replacingOccurrences(of: "\\", with: "/"))
        case 3: return [.bool(true), .bool(false), .null, .undefined][Int.random(in: 0..<4, using: &generator)]
        case 4: return .simple(UInt8.random(in: 32...255, using: &generator))
        case 5: return .tagged(UInt64.random(in: 6...100_000, using: &generator), .unsigned(7))
        case 6: return .array((0..<Int.random(in: 0..<4, using: &generator)).map { _ in randomComparable(&generator, depth: depth + 1) })
        case 7: return .indefinite(.array((0..<Int.random(in: 1..<4, using: &generator)).map { _ in randomComparable(&generator, depth: depth + 1) }))
        default:
            var pairs: [CBOR.Pair] = []
            for index in 0..<Int.random(in: 0..<4, using: &generator) {
                pairs.append(.init(.text("k\(index)"), randomComparable(&generator, depth: depth + 1)))
            }
            return .map(pairs)
        }
    }

    @Test func ourDiagnosticNotationMatchesCborDiag() async throws {
        var generator = SeededGenerator(seed: 7049)
        let items = (0..<150).map { _ in randomComparable(&generator) }
        let document = CBOR.array(items)
        let result = try await Peer.run("peer_cbor.py", ["decode", "--input", hexString(document.encoded())])
        #expect(result.accepted, "\(result.stderr)")
        let edn = try #require(try result.object()["edn"] as? String)
        // cbor-diag breaks long output into lines; the generated text strings hold no white space, so compare without it.
        #expect(edn.filter { !$0.isWhitespace } == document.diagnosticNotation.filter { !$0.isWhitespace })
    }

    @Test func cbor2DecodesOurDeterministicEncodingToTheSameBytes() async throws {
        var generator = SeededGenerator(seed: 8742)
        let document = CBOR.map((0..<50).map { CBOR.Pair(.int($0 * 7 - 100), randomComparable(&generator, depth: 1)) })
        let bytes = document.encoded(deterministic: true)
        let result = try await Peer.run("peer_cbor.py", ["sort", "--input", hexString(bytes)])
        #expect(result.accepted, "\(result.stderr)")
        #expect(try result.object()["rfc8949_4_2_1_hex (glue)"] as? String == hexString(bytes))
    }
}
