/// draft-ietf-oauth-status-list §4 — the Status List: a byte array in which every Referenced Token owns
/// `bits` bits (1, 2, 4 or 8) at its index, packed from the least significant bit of each byte upwards.
///
/// This is the uncompressed form; the `lst` member of a Status List Token carries it zlib-compressed.
public struct StatusList: Sendable, Hashable {
    /// Bits per status: 1, 2, 4 or 8 (draft §4.1).
    public let bits: Int
    /// The packed statuses.
    public private(set) var bytes: [UInt8]

    /// How many statuses the list holds.
    public var count: Int { bytes.count * (8 / bits) }

    /// A list of `count` statuses, all `0` (VALID), rounded up to whole bytes.
    public init(bits: Int, count: Int) throws(StatusListError) {
        try Self.check(bits: bits)
        guard count >= 0 else { throw .indexOutOfRange(count) }
        let perByte = 8 / bits
        self.bits = bits
        self.bytes = [UInt8](repeating: 0, count: (count + perByte - 1) / perByte)
    }

    /// A list over already packed (decompressed) bytes.
    public init(bits: Int, bytes: [UInt8]) throws(StatusListError) {
        try Self.check(bits: bits)
        self.bits = bits
        self.bytes = bytes
    }

    /// The status at `index` (draft §4.1: index `i` lives in byte `i * bits / 8`, at bit offset `(i * bits) % 8`).
    public func status(at index: Int) throws(StatusListError) -> UInt8 {
        let (byte, shift) = try position(of: index)
        return (bytes[byte] >> shift) & mask
    }

    /// Sets the status at `index`; the value must fit in `bits` bits.
    public mutating func setStatus(_ value: UInt8, at index: Int) throws(StatusListError) {
        guard value <= mask else { throw .valueTooLarge(value, bits: bits) }
        let (byte, shift) = try position(of: index)
        bytes[byte] = (bytes[byte] & ~(mask << shift)) | (value << shift)
    }

    /// The default bound on a decompressed list (16 MiB: 134 million 1-bit or 16 million 8-bit statuses).
    public static let defaultMaximumBytes = 16 << 20

    /// A list from its `lst` (zlib-compressed bytes, draft §4.1), never inflating more than `maximumBytes`.
    public init(bits: Int, compressed: [UInt8], maximumBytes: Int = StatusList.defaultMaximumBytes) throws(StatusListError) {
        try Self.check(bits: bits)
        self.bits = bits
        self.bytes = try Zlib.decompress(compressed, maximumLength: maximumBytes)
    }

    /// `lst`: the bytes zlib-compressed (draft §4.1), at the highest level.
    public func compressed() -> [UInt8] { Zlib.compress(bytes) }

    /// How many statuses hold each value (value → count), for reports.
    public func valueCounts() -> [UInt8: Int] {
        var counts = [Int](repeating: 0, count: 256)
        let perByte = 8 / bits
        for byte in bytes {
            if byte == 0 {
                counts[0] += perByte
                continue
            }
            for slot in 0..<perByte { counts[Int((byte >> (slot * bits)) & mask)] += 1 }
        }
        var result: [UInt8: Int] = [:]
        for (value, count) in counts.enumerated() where count > 0 { result[UInt8(value)] = count }
        return result
    }

    private var mask: UInt8 { bits == 8 ? 0xFF : UInt8((1 << bits) - 1) }

    private func position(of index: Int) throws(StatusListError) -> (byte: Int, shift: Int) {
        guard index >= 0, index < count else { throw .indexOutOfRange(index) }
        let bitOffset = index * bits
        return (bitOffset / 8, bitOffset % 8)
    }

    private static func check(bits: Int) throws(StatusListError) {
        guard [1, 2, 4, 8].contains(bits) else { throw .unsupportedBits(bits) }
    }
}
