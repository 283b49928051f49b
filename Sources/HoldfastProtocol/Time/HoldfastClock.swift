import Foundation
import Plumbing

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
public final class ManualClock: HoldfastClock {
    private let current: Locked<Date>

    public init(_ start: Date = Date(timeIntervalSince1970: 1_700_000_000)) {
        current = Locked(start)
    }

    public func now() -> Date {
        current.withLock { $0 }
    }

    public func advance(by interval: TimeInterval) {
        current.withLock { $0 = $0.addingTimeInterval(interval) }
    }

    public func set(_ date: Date) {
        current.withLock { $0 = date }
    }
}
