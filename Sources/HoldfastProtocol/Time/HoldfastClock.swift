import Foundation

/// The seam to time of the SDK and the server alike (STYLE habit 10): tests move a `ManualClock` past a license
/// expiry, a challenge's lifetime or a status list `ttl` instead of sleeping.
public protocol HoldfastClock: Sendable {
    func now() -> Date
}

/// The system's wall clock.
public struct SystemClock: HoldfastClock {
    public init() {}
    public func now() -> Date { Date() }
}

/// A clock that only moves when told to; for tests and simulations.
public final class ManualClock: HoldfastClock, @unchecked Sendable {
    // @unchecked: every access to `current` goes through `lock`.
    private let lock = NSLock()
    private var current: Date

    public init(_ start: Date = Date(timeIntervalSince1970: 1_700_000_000)) {
        self.current = start
    }

    public func now() -> Date {
        lock.withLock { current }
    }

    public func advance(by interval: TimeInterval) {
        lock.withLock { current = current.addingTimeInterval(interval) }
    }

    public func set(_ date: Date) {
        lock.withLock { current = date }
    }
}
