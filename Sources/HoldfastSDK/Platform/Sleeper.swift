/// The SDK's seam to waiting (STYLE habit 10): retries back off through it, so tests record the delays instead of
/// waiting them out.
public protocol Sleeper: Sendable {
    func sleep(seconds: Double) async throws
}

/// Sleeps with `Task.sleep` (cancellable).
public struct TaskSleeper: Sleeper {
    public init() {}

    public func sleep(seconds: Double) async throws {
        try await Task.sleep(nanoseconds: UInt64(max(0, seconds) * 1_000_000_000))
    }
}
