import CBOR
import Testing
import TestSupport

/// Random, truncated and mutated inputs never crash: each gives back an item or a typed error.
@Suite("Fuzz")
struct FuzzTests {
    private func decodeNeverCrashes(_ bytes: [UInt8]) -> Bool {
        do {
            let item = try CBOR.decode(bytes)
            // Everything reachable from a decoded item works too.
            _ = item.diagnosticNotation
            _ = item.prettyDiagnostic()
            _ = item.value.encoded(deterministic: true)
            return Array(item.rawBytes) == bytes
        } catch {
            return !error.code.isEmpty && (error.offset ?? 0) <= bytes.count
        }
    }

    @Test func randomBytesGiveAnItemOrATypedError() {
        var generator = SeededGenerator(seed: 1)
        for _ in 0..<5000 {
            let length = Int.random(in: 0..<48, using: &generator)
            let bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
            #expect(decodeNeverCrashes(bytes), "\(hexString(bytes))")
        }
    }

    @Test func everyTruncationOfValidItemsGivesATypedError() throws {
        var random = RandomCBOR(generator: SeededGenerator(seed: 2))
        for _ in 0..<300 {
            let encoded = random.value().encoded()
            for cut in 0..<encoded.count {
                do {
                    _ = try CBOR.decode(Array(encoded[..<cut]))
                    Issue.record("a truncation of \(hexString(encoded)) at \(cut) decoded")
                } catch {
                    #expect(["CBOR_UNEXPECTED_END", "CBOR_LENGTH_EXCEEDS_INPUT"].contains(error.code))
                }
            }
        }
    }

    @Test func mutatedValidItemsNeverCrash() {
        var random = RandomCBOR(generator: SeededGenerator(seed: 3))
        var generator = SeededGenerator(seed: 4)
        for _ in 0..<3000 {
            var bytes = random.value().encoded()
            guard !bytes.isEmpty else { continue }
            for _ in 0..<Int.random(in: 1...3, using: &generator) {
                bytes[Int.random(in: 0..<bytes.count, using: &generator)] = UInt8.random(in: 0...255, using: &generator)
            }
            #expect(decodeNeverCrashes(bytes), "\(hexString(bytes))")
        }
    }
}
