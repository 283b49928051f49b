/// A QR code (ISO/IEC 18004:2015) of some bytes: byte mode, error correction level M, the smallest version that holds
/// them, the mask with the lowest penalty (§7.8.3). `dark(row, column)` for each module; `svg()` draws it. Used by
/// `holdfast … --qr` (terminal) and the verifier page (SVG). No QR library is in the package mirror.
public struct QRCode: Sendable {
    public struct TooLong: Error, CustomStringConvertible {
        public let bytes: Int
        public var description: String { "\(bytes) bytes do not fit in a QR code at level M" }
    }

    /// §7.9.1 Table 25 (level M, format bits 00), per version 1–40: error correction codewords per block and
    /// the number of blocks.
    static let eccPerBlock = [10, 16, 26, 18, 24, 16, 18, 22, 22, 26, 30, 22, 22, 24, 24, 28, 28, 26, 26, 26,
                              26, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28]
    static let blocks = [1, 1, 1, 2, 2, 4, 4, 4, 5, 5, 5, 8, 9, 9, 10, 10, 11, 13, 14, 16,
                         17, 17, 18, 20, 21, 23, 25, 26, 28, 29, 31, 33, 35, 37, 38, 40, 43, 45, 47, 49]
    static let levelBits = 0b00

    public let version: Int
    /// Modules per side.
    public let size: Int
    private(set) var modules: [Bool]
    private var reserved: [Bool]

    public func dark(_ row: Int, _ column: Int) -> Bool { modules[row * size + column] }

    /// - Parameter forcedMask: a mask pattern (0–7) instead of the best one (tests compare against other encoders).
    public init(bytes: [UInt8], mask forcedMask: Int? = nil) throws {
        guard let version = (1...40).first(where: { Self.dataCapacity($0) * 8 >= Self.bitLength(bytes.count, version: $0) }) else {
            throw TooLong(bytes: bytes.count)
        }
        self.version = version
        size = version * 4 + 17
        modules = Array(repeating: false, count: size * size)
        reserved = Array(repeating: false, count: size * size)
        drawFunctionPatterns()
        let codewords = Self.interleaved(Self.dataCodewords(bytes, version: version), version: version)
        placeData(codewords)
        if let forcedMask {
            apply(mask: forcedMask)
            drawFormat(mask: forcedMask)
        } else {
            var best: (mask: Int, penalty: Int)?
            for mask in 0..<8 {
                var candidate = self
                candidate.apply(mask: mask)
                candidate.drawFormat(mask: mask)
                let penalty = candidate.penalty()
                if best == nil || penalty < best!.penalty { best = (mask, penalty) }
            }
            let mask = best?.mask ?? 0
            apply(mask: mask)
            drawFormat(mask: mask)
        }
    }

    // MARK: capacity and data (§7.4)

    /// Modules left for data and error correction once the function patterns are drawn.
    static func rawModules(_ version: Int) -> Int {
        var count = (16 * version + 128) * version + 64
        if version >= 2 {
            let alignments = version / 7 + 2
            count -= (25 * alignments - 10) * alignments - 55
            if version >= 7 { count -= 36 }
        }
        return count
    }

    static func dataCapacity(_ version: Int) -> Int {
        rawModules(version) / 8 - eccPerBlock[version - 1] * blocks[version - 1]
    }

    /// Mode indicator, character count (8 bits up to version 9, else 16) and the bytes.
    static func bitLength(_ count: Int, version: Int) -> Int {
        let countBits = version <= 9 ? 8 : 16
        guard count < 1 << countBits else { return .max }
        return 4 + countBits + 8 * count
    }

    static func dataCodewords(_ bytes: [UInt8], version: Int) -> [UInt8] {
        var bits: [Bool] = []
        func append(_ value: Int, _ count: Int) {
            for shift in stride(from: count - 1, through: 0, by: -1) { bits.append((value >> shift) & 1 == 1) }
        }
        append(0b0100, 4)
        append(bytes.count, version <= 9 ? 8 : 16)
        for byte in bytes { append(Int(byte), 8) }
        let capacity = dataCapacity(version) * 8
        append(0, min(4, capacity - bits.count))
        append(0, (8 - bits.count % 8) % 8)
        var codewords = stride(from: 0, to: bits.count, by: 8).map { start in
            bits[start..<start + 8].reduce(UInt8(0)) { $0 << 1 | ($1 ? 1 : 0) }
        }
        var pad: UInt8 = 0xEC
        while codewords.count < capacity / 8 {
            codewords.append(pad)
            pad = pad == 0xEC ? 0x11 : 0xEC
        }
        return codewords
    }

    /// §7.6: the data split into blocks (the short ones first), each with its Reed–Solomon codewords, then read
    /// column by column.
    static func interleaved(_ data: [UInt8], version: Int) -> [UInt8] {
        let blockCount = blocks[version - 1]
        let eccLength = eccPerBlock[version - 1]
        let total = rawModules(version) / 8
        let shortBlocks = blockCount - total % blockCount
        let shortLength = total / blockCount - eccLength
        let divisor = ReedSolomon.generator(degree: eccLength)
        var dataBlocks: [[UInt8]] = []
        var eccBlocks: [[UInt8]] = []
        var offset = 0
        for index in 0..<blockCount {
            let length = shortLength + (index < shortBlocks ? 0 : 1)
            let block = Array(data[offset..<offset + length])
            offset += length
            dataBlocks.append(block)
            eccBlocks.append(ReedSolomon.remainder(block, divisor: divisor))
        }
        var result: [UInt8] = []
        for column in 0...shortLength {
            for block in dataBlocks where column < block.count { result.append(block[column]) }
        }
        for column in 0..<eccLength {
            for block in eccBlocks { result.append(block[column]) }
        }
        return result
    }

    // MARK: function patterns (§6.3)

    private mutating func set(_ row: Int, _ column: Int, _ dark: Bool, reserve: Bool = true) {
        modules[row * size + column] = dark
        if reserve { reserved[row * size + column] = true }
    }

    private mutating func drawFunctionPatterns() {
        for index in 0..<size {
            set(6, index, index % 2 == 0)
            set(index, 6, index % 2 == 0)
        }
        drawFinder(3, 3)
        drawFinder(3, size - 4)
        drawFinder(size - 4, 3)
        let positions = alignmentPositions()
        for row in positions {
            for column in positions {
                let nearFinder = (row == 6 && column == 6) || (row == 6 && column == size - 7) || (row == size - 7 && column == 6)
                if !nearFinder { drawAlignment(row, column) }
            }
        }
        // Reserve the format areas now (drawn with the mask), and the dark module.
        drawFormat(mask: 0)
        drawVersion()
    }

    /// A finder centred at (row, column) with its separator, clipped to the symbol.
    private mutating func drawFinder(_ row: Int, _ column: Int) {
        for dr in -4...4 {
            for dc in -4...4 {
                let (r, c) = (row + dr, column + dc)
                guard r >= 0, r < size, c >= 0, c < size else { continue }
                let distance = max(abs(dr), abs(dc))
                set(r, c, distance != 2 && distance != 4)
            }
        }
    }

    private mutating func drawAlignment(_ row: Int, _ column: Int) {
        for dr in -2...2 {
            for dc in -2...2 { set(row + dr, column + dc, max(abs(dr), abs(dc)) != 1) }
        }
    }

    /// Annex E: the centres of the alignment patterns on each axis.
    func alignmentPositions() -> [Int] {
        guard version > 1 else { return [] }
        let count = version / 7 + 2
        let step = version == 32 ? 26 : (version * 4 + count * 2 + 1) / (count * 2 - 2) * 2
        var positions = [6]
        var position = size - 7
        var tail: [Int] = []
        for _ in 0..<(count - 1) {
            tail.append(position)
            position -= step
        }
        positions += tail.reversed()
        return positions
    }

    /// §7.9: the level and mask, BCH (15, 5) protected and masked with 101010000010010, in both copies.
    private mutating func drawFormat(mask: Int) {
        let data = Self.levelBits << 3 | mask
        var remainder = data
        for _ in 0..<10 { remainder = (remainder << 1) ^ ((remainder >> 9) * 0x537) }
        let bits = (data << 10 | remainder) ^ 0x5412
        func bit(_ index: Int) -> Bool { (bits >> index) & 1 == 1 }
        for index in 0...5 { set(index, 8, bit(index)) }
        set(7, 8, bit(6))
        set(8, 8, bit(7))
        set(8, 7, bit(8))
        for index in 9..<15 { set(8, 14 - index, bit(index)) }
        for index in 0..<8 { set(8, size - 1 - index, bit(index)) }
        for index in 8..<15 { set(size - 15 + index, 8, bit(index)) }
        set(size - 8, 8, true)
    }

    /// §7.10: the version, BCH (18, 6) protected, from version 7.
    private mutating func drawVersion() {
        guard version >= 7 else { return }
        var remainder = version
        for _ in 0..<12 { remainder = (remainder << 1) ^ ((remainder >> 11) * 0x1F25) }
        let bits = version << 12 | remainder
        for index in 0..<18 {
            let dark = (bits >> index) & 1 == 1
            let (a, b) = (size - 11 + index % 3, index / 3)
            set(b, a, dark)
            set(a, b, dark)
        }
    }

    // MARK: data and masking (§7.7, §7.8)

    private mutating func placeData(_ codewords: [UInt8]) {
        var index = 0
        var right = size - 1
        while right >= 1 {
            if right == 6 { right = 5 }
            let upward = (right + 1) & 2 == 0
            for step in 0..<size {
                let row = upward ? size - 1 - step : step
                for column in [right, right - 1] where !reserved[row * size + column] {
                    if index < codewords.count * 8 {
                        modules[row * size + column] = (codewords[index >> 3] >> (7 - (index & 7))) & 1 == 1
                        index += 1
                    }
                }
            }
            right -= 2
        }
    }

    private mutating func apply(mask: Int) {
        for row in 0..<size {
            for column in 0..<size where !reserved[row * size + column] {
                let flip = switch mask {
                case 0: (row + column) % 2 == 0
                case 1: row % 2 == 0
                case 2: column % 3 == 0
                case 3: (row + column) % 3 == 0
                case 4: (row / 2 + column / 3) % 2 == 0
                case 5: (row * column) % 2 + (row * column) % 3 == 0
                case 6: ((row * column) % 2 + (row * column) % 3) % 2 == 0
                default: ((row + column) % 2 + (row * column) % 3) % 2 == 0
                }
                if flip { modules[row * size + column].toggle() }
            }
        }
    }

    /// §7.8.3: runs of five or more (N1 = 3), 2×2 blocks (N2 = 3), finder-like 1:1:3:1:1 runs with four light
    /// modules on one side (N3 = 40), and the dark proportion away from 50 % (N4 = 10).
    func penalty() -> Int {
        var total = 0
        for horizontal in [true, false] {
            for line in 0..<size {
                let values = (0..<size).map { horizontal ? dark(line, $0) : dark($0, line) }
                var run = 1
                for index in 1...size {
                    if index < size, values[index] == values[index - 1] {
                        run += 1
                    } else {
                        if run >= 5 { total += 3 + run - 5 }
                        run = 1
                    }
                }
                let pattern: [Bool] = [true, false, true, true, true, false, true]
                for start in 0...(size - 7) where Array(values[start..<start + 7]) == pattern {
                    let before = start >= 4 && !values[(start - 4)..<start].contains(true)
                    let after = start + 11 <= size && !values[(start + 7)..<(start + 11)].contains(true)
                    let beforeEdge = start < 4 && !values[0..<start].contains(true)
                    let afterEdge = start + 11 > size && !values[(start + 7)...].contains(true)
                    if before || after || beforeEdge || afterEdge { total += 40 }
                }
            }
        }
        for row in 0..<(size - 1) {
            for column in 0..<(size - 1) {
                let value = dark(row, column)
                if dark(row + 1, column) == value, dark(row, column + 1) == value, dark(row + 1, column + 1) == value {
                    total += 3
                }
            }
        }
        let darkCount = modules.filter { $0 }.count
        let percent = darkCount * 100 / modules.count
        total += abs(percent - 50) / 5 * 10
        return total
    }
}

/// Reed–Solomon over GF(2^8) with the polynomial x^8 + x^4 + x^3 + x^2 + 1 (§7.5.2).
enum ReedSolomon {
    static func multiply(_ a: UInt8, _ b: UInt8) -> UInt8 {
        var result: UInt8 = 0
        var a = a
        var b = b
        while b != 0 {
            if b & 1 == 1 { result ^= a }
            let carry = a & 0x80 != 0
            a <<= 1
            if carry { a ^= 0x1D }
            b >>= 1
        }
        return result
    }

    /// The coefficients after the leading 1 of ∏ (x − α^i), i < degree, highest first.
    static func generator(degree: Int) -> [UInt8] {
        var coefficients = [UInt8](repeating: 0, count: degree)
        coefficients[degree - 1] = 1
        var root: UInt8 = 1
        for _ in 0..<degree {
            for index in 0..<degree {
                coefficients[index] = multiply(coefficients[index], root)
                if index + 1 < degree { coefficients[index] ^= coefficients[index + 1] }
            }
            root = multiply(root, 0x02)
        }
        return coefficients
    }

    static func remainder(_ data: [UInt8], divisor: [UInt8]) -> [UInt8] {
        var result = [UInt8](repeating: 0, count: divisor.count)
        for byte in data {
            let factor = byte ^ result.removeFirst()
            result.append(0)
            for index in 0..<divisor.count { result[index] ^= multiply(divisor[index], factor) }
        }
        return result
    }
}
