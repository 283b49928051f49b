import Ephemeral
import Foundation

/// A time source the tests move by hand (STYLE.md habit 10).
///
/// `@unchecked Sendable`: the only state, `current`, is read and written under `lock`.
final class ManualTime: @unchecked Sendable {
    private let lock = NSLock()
    private var current: Duration = .seconds(1_000)

    func advance(by duration: Duration) {
        lock.withLock { current += duration }
    }

    var source: EphemeralTimeSource {
        EphemeralTimeSource { [self] in lock.withLock { current } }
    }
}
