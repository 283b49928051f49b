/// The loopback transport's frame: a 4-byte big-endian length, then that many bytes (docs/sdk.md "Proximity
/// transports"). This is not ISO/IEC 18013-5's wire; it carries the same session messages for tests and demos.
enum LoopbackFrame {
    static let headerLength = 4
    /// 16 MiB: a header announcing more is refused before any of the body is read.
    static let maximumLength = 16 * 1024 * 1024

    /// The header that announces a message of `length` bytes.
    static func header(for length: Int) throws(LoopbackFrameError) -> [UInt8] {
        guard length <= maximumLength else { throw .tooLong(length) }
        let value = UInt32(length)
        return [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
    }

    /// The length a received header announces, refused over the cap.
    static func length(ofHeader header: [UInt8]) throws(LoopbackFrameError) -> Int {
        guard header.count == headerLength else { throw .truncated(expected: headerLength, received: header.count) }
        let length = header.reduce(0) { $0 << 8 | Int($1) }
        guard length <= maximumLength else { throw .tooLong(length) }
        return length
    }
}

/// Why a loopback frame was refused.
enum LoopbackFrameError: Error, Equatable {
    /// A message (sent or announced) over `LoopbackFrame.maximumLength`.
    case tooLong(Int)
    /// The peer closed the connection after `received` of the `expected` bytes of a header or a body.
    case truncated(expected: Int, received: Int)

    var holdfastError: HoldfastError {
        switch self {
        case .tooLong(let length):
            HoldfastError(.networkError, "a loopback message of \(length) bytes is over the 16 MiB cap")
        case .truncated(let expected, let received):
            HoldfastError(.networkError,
                          "the peer closed the connection in the middle of a message (\(received) of \(expected) bytes)")
        }
    }
}
