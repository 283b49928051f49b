import Foundation

/// Where the server draws its random values: identifiers, secrets, codes, the status list indices it hands out
/// (DESIGN §4 "Randomness"). `SystemRandomSource` (the system's cryptographically secure generator) unless a test
/// injects another through `HoldfastApplication.Options.random`; services take it from `ServerServices.random` (or
/// the command line's admin services) instead of creating generators or `UUID()`s themselves.
public protocol RandomSource: Sendable {
    /// `count` uniformly random bytes.
    func bytes(_ count: Int) -> [UInt8]
}

/// The system's cryptographically secure generator (`SystemRandomNumberGenerator`: `getrandom(2)` on Linux,
/// `arc4random_buf` on Apple platforms).
public struct SystemRandomSource: RandomSource {
    public init() {}

    public func bytes(_ count: Int) -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        var bytes = [UInt8](repeating: 0, count: count)
        var index = 0
        while index < count {
            var word = generator.next()
            for _ in 0..<Swift.min(8, count - index) {
                bytes[index] = UInt8(truncatingIfNeeded: word)
                word >>= 8
                index += 1
            }
        }
        return bytes
    }
}

extension RandomSource {
    /// A version 4 UUID (RFC 9562 §5.4) in lower case, the server's resource identifiers.
    public func identifier() -> String {
        var raw = bytes(16)
        raw[6] = (raw[6] & 0x0F) | 0x40
        raw[8] = (raw[8] & 0x3F) | 0x80
        let uuid = UUID(uuid: (raw[0], raw[1], raw[2], raw[3], raw[4], raw[5], raw[6], raw[7],
                               raw[8], raw[9], raw[10], raw[11], raw[12], raw[13], raw[14], raw[15]))
        return uuid.uuidString.lowercased()
    }

    /// A uniformly drawn integer in `range` (rejection sampling, no modulo bias); `range` must not be empty.
    public func integer(in range: Range<Int>) -> Int {
        precondition(!range.isEmpty, "an empty range has no value to draw")
        let span = UInt64(range.count)
        let limit = UInt64.max - (UInt64.max % span)
        while true {
            let draw = bytes(8).reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
            if draw < limit { return range.lowerBound + Int(draw % span) }
        }
    }
}
