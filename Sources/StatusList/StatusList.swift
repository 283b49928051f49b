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

/// Errors of the status list codec, each with a stable code.
public enum StatusListError: Error, Sendable, Hashable {
    case unsupportedBits(Int)
    case indexOutOfRange(Int)
    case valueTooLarge(UInt8, bits: Int)

    public var code: String {
        switch self {
        case .unsupportedBits: "STATUS_LIST_UNSUPPORTED_BITS"
        case .indexOutOfRange: "STATUS_LIST_INDEX_OUT_OF_RANGE"
        case .valueTooLarge: "STATUS_LIST_VALUE_TOO_LARGE"
        }
    }
}
