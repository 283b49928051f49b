import Foundation
import HoldfastProtocol

/// One measured rate: how many operations ran in how long.
struct Rate: Sendable {
    let operations: Int
    let seconds: Double
    var perSecond: Double { Double(operations) / seconds }

    init(operations: Int, seconds: Double) {
        self.operations = operations
        self.seconds = seconds
    }

    /// Two measurements of the same operation as one.
    static func += (total: inout Rate, more: Rate) {
        total = Rate(operations: total.operations + more.operations, seconds: total.seconds + more.seconds)
    }

    init(operations: Int, elapsed: Duration) {
        self.init(operations: operations,
                  seconds: elapsed.inMilliseconds / 1000)
    }
}

/// Runs `body` in batches until `seconds` have passed (after a short warm-up) and returns the rate.
/// Batches keep the clock reads out of the measured work.
func measureRate(seconds: Double, batch: Int = 100, warmUp: Int = 200, _ body: () throws -> Void) rethrows -> Rate {
    for _ in 0..<warmUp { try body() }
    let clock = ContinuousClock()
    let start = clock.now
    let deadline = start.advanced(by: .milliseconds(Int64(seconds * 1000)))
    var operations = 0
    var now = start
    repeat {
        for _ in 0..<batch { try body() }
        operations += batch
        now = clock.now
    } while now < deadline
    return Rate(operations: operations, elapsed: start.duration(to: now))
}

/// `measureRate` for an async body (the attestation verifiers are async because their issuer cache is an actor).
func measureAsyncRate(seconds: Double, batch: Int = 100, warmUp: Int = 200,
                      _ body: () async throws -> Void) async rethrows -> Rate {
    for _ in 0..<warmUp { try await body() }
    let clock = ContinuousClock()
    let start = clock.now
    let deadline = start.advanced(by: .milliseconds(Int64(seconds * 1000)))
    var operations = 0
    var now = start
    repeat {
        for _ in 0..<batch { try await body() }
        operations += batch
        now = clock.now
    } while now < deadline
    return Rate(operations: operations, elapsed: start.duration(to: now))
}

/// Measures `ours` and `baseline` in alternating slices (`slices` of each, `seconds` in all for each), so that the
/// two see the same machine: on a shared VM the speed of a core drifts by tens of percent within a minute, and two
/// rates measured one after the other can carry that drift into their ratio.
func measureInterleaved(seconds: Double, slices: Int = 12, batch: Int = 50,
                        baseline: () throws -> Void, ours: () async throws -> Void) async rethrows -> (ours: Rate, baseline: Rate) {
    let clock = ContinuousClock()
    let slice = Duration.milliseconds(Int64(seconds * 1000) / Int64(max(1, slices)))
    var oursOperations = 0, baselineOperations = 0
    var oursElapsed = Duration.zero, baselineElapsed = Duration.zero
    for _ in 0..<max(1, slices) {
        var start = clock.now
        var now = start
        repeat {
            for _ in 0..<batch { try baseline() }
            baselineOperations += batch
            now = clock.now
        } while now < start.advanced(by: slice)
        baselineElapsed += start.duration(to: now)
        start = clock.now
        now = start
        repeat {
            for _ in 0..<batch { try await ours() }
            oursOperations += batch
            now = clock.now
        } while now < start.advanced(by: slice)
        oursElapsed += start.duration(to: now)
    }
    return (Rate(operations: oursOperations, elapsed: oursElapsed), Rate(operations: baselineOperations, elapsed: baselineElapsed))
}

/// Prints a benchmark line: our figure, the baseline's, and the ratio.
func printComparison(name: String, ours: Rate, baselineName: String, baseline: Double, unit: String = "ops/s") {
    let ratio = ours.perSecond / baseline
    print(String(format: "%@: %.0f %@ (%d in %.2f s)", name, ours.perSecond, unit, ours.operations, ours.seconds))
    print(String(format: "%@: %.0f %@", baselineName, baseline, unit))
    print(String(format: "ratio: %.2f×", ratio))
}

/// Runs `operation` on every client at once, each on its own task, until `seconds` have passed, and returns the
/// rate (operations over the real elapsed time) and each operation's latency, sorted. Every client runs at least one
/// measured operation, so that a task a loaded machine starts late still counts; `more` stops a client early (it
/// ran out of prepared work).
func runTimedLoad<Client: Sendable>(_ clients: [Client], seconds: Double, more: @escaping @Sendable (Client) -> Bool = { _ in true },
                                    _ operation: @escaping @Sendable (Client) async throws -> Void) async throws -> (rate: Rate, latencies: [Duration]) {
    let clock = ContinuousClock()
    let start = clock.now
    let deadline = start.advanced(by: .milliseconds(Int64(seconds * 1000)))
    let latencies = try await withThrowingTaskGroup(of: [Duration].self) { group in
        for client in clients {
            group.addTask {
                var latencies: [Duration] = []
                latencies.reserveCapacity(8192)
                repeat {
                    guard more(client) else { break }
                    let began = clock.now
                    try await operation(client)
                    latencies.append(began.duration(to: clock.now))
                } while clock.now < deadline
                return latencies
            }
        }
        var all: [Duration] = []
        for try await part in group { all.append(contentsOf: part) }
        return all
    }
    return (Rate(operations: latencies.count, elapsed: start.duration(to: clock.now)), latencies.sorted())
}
