import Foundation
import HoldfastProtocol

/// The app's hook into its platform's background refresh (docs/sdk.md "Holder: automatic tethering"): on iOS, a
/// `BGAppRefreshTaskRequest` submitted to `BGTaskScheduler` for the identifier the app lists under
/// `BGTaskSchedulerPermittedIdentifiers`. The app owns the task — its identifier, its registration during launch —
/// so the SDK links no background-task framework; docs/sdk.md "Holder: automatic tethering" shows the few lines an iOS app writes.
public protocol BackgroundRefreshRequester: Sendable {
    /// Asks the system to wake the app at or after `date`; the system may refuse, or wake it later.
    func requestRefresh(at date: Date)
    /// Withdraws the request.
    func cancelRefresh()
}

/// `TetheringScheduler` for a platform that wakes suspended apps (DESIGN.md §3): the in-process timer while the app
/// runs, and a background refresh requested for the same time through the app's `BackgroundRefreshRequester`. The
/// app's refresh handler calls `runDueWork()`; the work runs once, on whichever comes first.
public actor BackgroundRefreshTetheringScheduler: TetheringScheduler {
    private let requester: any BackgroundRefreshRequester
    private let clock: any HoldfastClock
    private let timer: TimerTetheringScheduler
    private var pending: (@Sendable () async -> Void)?

    public init(requester: any BackgroundRefreshRequester, clock: any HoldfastClock = SystemClock(),
                sleeper: any Sleeper = TaskSleeper()) {
        self.requester = requester
        self.clock = clock
        self.timer = TimerTetheringScheduler(sleeper: sleeper)
    }

    public func schedule(after delay: Double, _ work: @escaping @Sendable () async -> Void) async {
        pending = work
        requester.requestRefresh(at: clock.now().addingTimeInterval(max(0, delay)))
        await timer.schedule(after: delay) { [weak self] in await self?.runDueWork() }
    }

    public func cancel() async {
        pending = nil
        requester.cancelRefresh()
        await timer.cancel()
    }

    /// Runs the scheduled work now and waits for it (the system woke the app for it); nothing when none is
    /// scheduled or it already ran. Call it from the app's background refresh handler.
    public func runDueWork() async {
        guard let work = pending else { return }
        pending = nil
        await work()
    }
}
