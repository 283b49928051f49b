// docs/sdk.md "Automatic tethering": the background refresh an iOS app requests from the system. BackgroundTasks exists
// on Apple platforms only, so this file compiles there and not on Linux (docs/security.md "What is not tested here").
#if canImport(BackgroundTasks) && canImport(CryptoKit) && canImport(Security) && canImport(DeviceCheck) && canImport(LocalAuthentication)
import BackgroundTasks
import Foundation
import HoldfastSDK

// guide: background-refresh
struct TetheringRefresh: BackgroundRefreshRequester {        // the app's few lines, iOS
    static let identifier = "com.example.wallet.tethering"
    func requestRefresh(at date: Date) {
        let request = BGAppRefreshTaskRequest(identifier: Self.identifier)
        request.earliestBeginDate = date
        try? BGTaskScheduler.shared.submit(request)          // the system may refuse; the timer still runs
    }
    func cancelRefresh() { BGTaskScheduler.shared.cancel(taskRequestWithIdentifier: Self.identifier) }
}

func appleSeamsWithBackgroundRefresh() -> PlatformSeams {
    let seams = PlatformSeams.apple(backgroundRefresh: TetheringRefresh())
    let scheduler = seams.tetheringScheduler as! BackgroundRefreshTetheringScheduler
    BGTaskScheduler.shared.register(forTaskWithIdentifier: TetheringRefresh.identifier, using: nil) { task in
        let run = Task { await scheduler.runDueWork() }
        task.expirationHandler = { run.cancel() }
        Task { await run.value; task.setTaskCompleted(success: !run.isCancelled) }
    }
    return seams
}
// guide: end
#endif
