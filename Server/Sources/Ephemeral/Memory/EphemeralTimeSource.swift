/// The time against which `InMemoryEphemeralStore` measures lifetimes (STYLE.md habit 10: inject time).
///
/// `now()` is a point on a monotonic line with an arbitrary origin; only differences matter. The default reads
/// `ContinuousClock`; tests pass a closure over a value they move, and the server can adapt its own clock seam.
public struct EphemeralTimeSource: Sendable {
    private let read: @Sendable () -> Duration

    public init(_ now: @escaping @Sendable () -> Duration) {
        self.read = now
    }

    public func now() -> Duration { read() }

    /// The system's monotonic clock.
    public static var system: EphemeralTimeSource {
        let origin = ContinuousClock.now
        return EphemeralTimeSource { ContinuousClock.now - origin }
    }
}
