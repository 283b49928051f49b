import Foundation
import HoldfastProtocol
import HoldfastServer

/// The time and the randomness of one `holdfast` run, made once where a command starts and passed down, so that no
/// command reads the system clock or draws random values on its own (DESIGN §4 "Randomness"; the admin commands take
/// theirs from `AdminServices`). Benchmarks measure durations with a monotonic clock (`ContinuousClock`); the times
/// written into fixtures, proofs and credentials come from here.
struct CommandRun: Sendable {
    let clock: any HoldfastClock
    let random: any RandomSource

    /// The system's clock and cryptographically secure generator.
    static func system() -> CommandRun {
        CommandRun(clock: SystemClock(), random: SystemRandomSource())
    }

    func now() -> Date { clock.now() }

    /// Now, to the whole second (what CBOR and JWT times carry).
    func wholeSecondNow() -> Date { Date(timeIntervalSince1970: now().timeIntervalSince1970.rounded(.down)) }

    /// A path in the temporary folder no other run uses: `<prefix>-<random identifier><suffix>`.
    func temporaryURL(_ prefix: String, suffix: String = "") -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(random.identifier())\(suffix)")
    }
}
