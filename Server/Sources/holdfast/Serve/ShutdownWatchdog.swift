import Foundation

/// The last resort of the shutdown deadline (docs/operations.md "Configuration", `HOLDFAST_SHUTDOWN_DEADLINE_SECS`): the
/// server closes its connections and cancels the handlers still running at the deadline, then returns; should a
/// handler still hold the process `grace` later (waiting on a database that does not answer), it exits 0 anyway —
/// the signal asked it to stop, and no transaction left open commits (the database rolls back what a closed
/// connection left).
final class ShutdownWatchdog {
    static let grace = Duration.seconds(1)

    private let sources: [any DispatchSourceSignal]

    init(deadline: Duration) {
        let seconds = Double(deadline.components.seconds) + Double(deadline.components.attoseconds) * 1e-18
        sources = [SIGTERM, SIGINT].map { signalNumber in
            let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: .global())
            source.setEventHandler {
                DispatchQueue.global().asyncAfter(deadline: .now() + seconds) {
                    Console.line("shutdown did not finish \(Int(seconds)) s after the signal; exiting")
                    ExitStatus.exitSucceeded()
                }
            }
            source.resume()
            return source
        }
    }

    func cancel() {
        for source in sources { source.cancel() }
    }
}
