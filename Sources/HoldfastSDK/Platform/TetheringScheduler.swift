/// The SDK's seam to running tethering work later (DESIGN.md §3; docs/sdk.md "Holder: automatic tethering"): after
/// `initialize(platformConfiguration:)` the SDK registers and keeps its license fresh through it. One slot: a new
/// `schedule` replaces the work scheduled before, so there is at most one next run.
///
/// - Linux and the default: `TimerTetheringScheduler`, a timer in the process (work runs while the app runs).
/// - A platform that wakes suspended apps (iOS): `BackgroundRefreshTetheringScheduler`, the same timer plus a
///   background refresh the app requests from the system (a `BGAppRefreshTaskRequest`), so that a due renewal also
///   runs while the app is suspended.
/// - Tests and simulated devices that drive tethering themselves: `ManualTetheringScheduler` (nothing runs until
///   told).
public protocol TetheringScheduler: Sendable {
    /// Runs `work` once, `delay` seconds from now, in place of any work scheduled before.
    func schedule(after delay: Double, _ work: @escaping @Sendable () async -> Void) async
    /// Drops the scheduled work, if any.
    func cancel() async
}

/// `TetheringScheduler` with a timer in the process: a task that sleeps through the `Sleeper` and then runs the work.
public actor TimerTetheringScheduler: TetheringScheduler {
    private let sleeper: any Sleeper
    private var pending: Task<Void, Never>?

    public init(sleeper: any Sleeper = TaskSleeper()) {
        self.sleeper = sleeper
    }

    public func schedule(after delay: Double, _ work: @escaping @Sendable () async -> Void) {
        pending?.cancel()
        let sleeper = sleeper
        pending = Task {
            do { try await sleeper.sleep(seconds: max(0, delay)) } catch { return }
            guard !Task.isCancelled else { return }
            await work()
        }
    }

    public func cancel() {
        pending?.cancel()
        pending = nil
    }
}
