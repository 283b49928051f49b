/// `TetheringScheduler` that runs nothing by itself (STYLE habit 10): it records the delay asked for, and the
/// test — or a simulated device that drives tethering with explicit calls — runs the work with `runScheduled()`.
public actor ManualTetheringScheduler: TetheringScheduler {
    private var pending: (@Sendable () async -> Void)?
    /// Every delay asked for, in order.
    public private(set) var requestedDelays: [Double] = []

    public init() {}

    public func schedule(after delay: Double, _ work: @escaping @Sendable () async -> Void) {
        requestedDelays.append(delay)
        pending = work
    }

    public func cancel() {
        pending = nil
    }

    /// Whether work is scheduled.
    public var hasScheduledWork: Bool { pending != nil }

    /// The delay of the work scheduled last, `nil` when nothing is scheduled.
    public var scheduledDelay: Double? { pending == nil ? nil : requestedDelays.last }

    /// Runs the scheduled work now (as if its time had come) and waits for it; false when nothing was scheduled.
    @discardableResult
    public func runScheduled() async -> Bool {
        guard let work = pending else { return false }
        pending = nil
        await work()
        return true
    }
}
