import CBOR
import Testing
import TestSupport

/// A small deterministic generator (SplitMix64) so that property-style tests are reproducible.
struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9e37_79b9_7f4a_7c15
        var z = state
        z = (z ^ (z >> 30)) &* 0xbf58_476d_1ce4_e5b9
        z = (z ^ (z >> 27)) &* 0x94d0_49bb_1331_11eb
        return z ^ (z >> 31)
    }
}

/// Random CBOR values of every kind, bounded in depth and size, with unique map keys.
struct RandomCBOR {
    var generator: SeededGenerator

    mutating func value(depth: Int = 0) -> CBOR {
        let choice = Int.random(in: 0..<(depth > 3 ? 11 : 17), using: &generator)
        switch choice {
        case 0: return .unsigned(integer())
        case 1: return .negative(integer())
        case 2: return .bytes((0..<Int.random(in: 0..<40, using: &generator)).map { _ in UInt8.random(in: 0...255, using: &generator) })
        case 3: return .text(text())
        case 4: return .bool(Bool.random(using: &generator))
        case 5: return [.null, .undefined, .simple(UInt8.random(in: 0...19, using: &generator)),
                        .simple(UInt8.random(in: 32...255, using: &generator))][Int.random(in: 0..<4, using: &generator)]
        case 6: return .float(Double(bitPattern: generator.next()), .double)
        case 7: return .float(Double(Float(bitPattern: UInt32.random(in: 0...UInt32.max, using: &generator))), .single)
        case 8: return .float(Double(Int.random(in: -2048...2048, using: &generator)) / 8, .half)
        case 9: return .float([0.0, -0.0, .infinity, -.infinity, .nan][Int.random(in: 0..<5, using: &generator)])
        case 10: return .indefinite(.bytes((0..<Int.random(in: 0..<3, using: &generator)).map { _ in [UInt8.random(in: 0...255, using: &generator)] }))
        case 11, 12: return .array((0..<Int.random(in: 0..<6, using: &generator)).map { _ in value(depth: depth + 1) })
        case 13: return .indefinite(.array((0..<Int.random(in: 0..<4, using: &generator)).map { _ in value(depth: depth + 1) }))
        case 14, 15: return .map(pairs(depth: depth))
        default: return .tagged(UInt64.random(in: 0...1_000_000, using: &generator), value(depth: depth + 1))
        }
    }

    private mutating func integer() -> UInt64 {
        let limits: [UInt64] = [23, 0xff, 0xffff, 0xffff_ffff, .max]
        return UInt64.random(in: 0...limits[Int.random(in: 0..<5, using: &generator)], using: &generator)
    }

    private mutating func text() -> String {
        let alphabet: [Character] = ["a", "b", "Z", "0", " ", "\"", "\\", "é", "ü", "水", "𐅑", "\n"]
        return String((0..<Int.random(in: 0..<12, using: &generator)).map { _ in alphabet.randomElement(using: &generator) ?? "a" })
    }

    private mutating func pairs(depth: Int) -> [CBOR.Pair] {
        var result: [CBOR.Pair] = []
        var seen: [[UInt8]] = []
        for _ in 0..<Int.random(in: 0..<6, using: &generator) {
            let key: CBOR = Bool.random(using: &generator) ? .text(text()) : value(depth: depth + 2)
            let encodedKey = key.encoded(deterministic: true)
            guard !seen.contains(encodedKey) else { continue }
            seen.append(encodedKey)
            result.append(.init(key, value(depth: depth + 1)))
        }
        return result
    }
}

@Suite("Round trips")
struct RoundTripTests {
    @Test func randomValuesSurviveEncodeThenDecode() throws {
        var random = RandomCBOR(generator: SeededGenerator(seed: 8949))
        for _ in 0..<2000 {
            let value = random.value()
            let encoded = value.encoded()
            let decoded = try CBOR.decode(encoded)
            #expect(decoded.value == value, "\(value.diagnosticNotation)")
            #expect(Array(decoded.rawBytes) == encoded)
        }
    }

    @Test func deterministicEncodingIsIdempotentAndSortsKeysBytewise() throws {
        var random = RandomCBOR(generator: SeededGenerator(seed: 4_2_1))
        for _ in 0..<2000 {
            let value = random.value()
            let once = value.encoded(deterministic: true)
            let decoded = try CBOR(decoding: once)
            #expect(decoded.encoded(deterministic: true) == once)
            #expect(decoded.encoded() == once, "a deterministic encoding re-encodes to itself")
            #expect(decoded.isSameDataModelValue(as: value))
            try assertDeterministic(try CBOR.decode(once))
        }
    }

    /// RFC 8949 §4.2.1 checked on the bytes: definite lengths, shortest floats, keys in bytewise order.
    private func assertDeterministic(_ item: CBOR.Decoded) throws {
        #expect(!item.isIndefiniteLength)
        if let width = item.floatWidth, case .float(let value, _) = item.value {
            #expect(width == CBOR.float(value).floatWidthForTest)
        }
        if item.majorType == 5 {
            let keys = try item.map().map { Array($0.key.rawBytes) }
            #expect(keys == keys.sorted { $0.lexicographicallyPrecedes($1) })
            for pair in try item.map() {
                try assertDeterministic(pair.key)
                try assertDeterministic(pair.value)
            }
        } else if item.majorType == 4 {
            for element in try item.array() { try assertDeterministic(element) }
        } else if item.majorType == 6 {
            try assertDeterministic(try item.tag().content)
        }
    }

    @Test func deterministicEncodingSortsKeysByEncodedBytesNotLength() {
        // RFC 8949 §4.2.1 bytewise order puts 10 (0x0a) before 100 (0x1864) before -1 (0x20) before "z" before "aa".
        let map: CBOR = ["aa": 1, "z": 2, -1: 3, 100: 4, 10: 5]
        #expect(map.encoded(deterministic: true) == hexBytes("a5 0a05 186404 2003 617a02 62616101"))
        #expect(map.encoded() == hexBytes("a5 62616101 617a02 2003 186404 0a05"), "the default encoder keeps order")
    }

    @Test func deterministicEncodingUsesShortestFloatAndDefiniteLengths() {
        let value: CBOR = .indefinite(.array([.float(1.5, .double), .float(100000, .double), .float(1.1, .half),
                                              .indefinite(.text(["a", "b"]))]))
        #expect(value.encoded(deterministic: true) == hexBytes("84 f93e00 fa47c35000 fb3ff199999999999a 626162"))
    }

    @Test func floatWidthIsKeptWhenReencoding() throws {
        for hex in ["fa3fc00000", "fb3ff8000000000000", "f93e00", "fa7fc00001", "f97e01"] {
            #expect(try CBOR(decoding: hexBytes(hex)).encoded() == hexBytes(hex))
        }
    }

    @Test func halfPrecisionConversionsAreExact() throws {
        // Every finite binary16 value survives half → double → half.
        for bits in UInt16.min...UInt16.max {
            let bytes: [UInt8] = [0xf9, UInt8(bits >> 8), UInt8(bits & 0xff)]
            let value = try CBOR(decoding: bytes)
            #expect(value.encoded() == bytes)
            if case .float(let double, _) = value, !double.isNaN {
                #expect(CBOR.float(double).encoded() == bytes)
            }
        }
    }
}

extension CBOR {
    var floatWidthForTest: FloatWidth? {
        if case .float(_, let width) = self { return width }
        return nil
    }
}
