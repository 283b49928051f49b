#if canImport(BackgroundTasks) && os(iOS)
import BackgroundTasks
import Foundation

/// `TetheringScheduler` on iOS (DESIGN.md §3): the in-process timer while the app runs, and a
/// `BGAppRefreshTaskRequest` for the same time, so that the system may wake a suspended app for a due renewal.
///
/// The app lists `identifier` under `BGTaskSchedulerPermittedIdentifiers` in its Info.plist and calls
/// `registerLaunchHandler()` before its launch ends (Apple, "BGTaskScheduler"). Not built or run on Linux.
public actor BackgroundTaskTetheringScheduler: TetheringScheduler {
    public static let defaultIdentifier = "dev.holdfast.tethering.refresh"

    public nonisolated let identifier: String
    private let timer = TimerTetheringScheduler()
    private var pending: (@Sendable () async -> Void)?

    public init(identifier: String = BackgroundTaskTetheringScheduler.defaultIdentifier) {
        self.identifier = identifier
    }

    /// Registers the refresh task's handler with `BGTaskScheduler`; call it once, during launch.
    public nonisolated func registerLaunchHandler() {
        _ = BGTaskScheduler.shared.register(forTaskWithIdentifier: identifier, using: nil) { task in
            // A BGTask is touched here and by its completion only (Apple, "BGTaskScheduler").
            nonisolated(unsafe) let task = task
            let run = Task { await self.runPending() }
            task.expirationHandler = { run.cancel() }
            Task {
                await run.value
                task.setTaskCompleted(success: !run.isCancelled)
            }
        }
    }

    public func schedule(after delay: Double, _ work: @escaping @Sendable () async -> Void) async {
        pending = work
        let request = BGAppRefreshTaskRequest(identifier: identifier)
        request.earliestBeginDate = Date(timeIntervalSinceNow: max(0, delay))
        // The system may refuse (background refresh off, too many requests): the timer still runs while the app does.
        try? BGTaskScheduler.shared.submit(request)
        await timer.schedule(after: delay) { [weak self] in await self?.runPending() }
    }

    public func cancel() async {
        pending = nil
        BGTaskScheduler.shared.cancel(taskRequestWithIdentifier: identifier)
        await timer.cancel()
    }

    private func runPending() async {
        guard let work = pending else { return }
        pending = nil
        await work()
    }
}
#endif
