import ArgumentParser
import Foundation
import Logging

/// `holdfast demo` — tethering and device registration end to end against an in-process tenant (DESIGN.md §5),
/// printed step by step with a short explanation each. Exits 1 when a step fails.
struct DemoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo",
        abstract: "Run every capability end to end against an in-process tenant and show each step.",
        discussion: """
            A tenant server in this process and a simulated device: registration, license renewal, key rotation, \
            wallet attestation; an mDoc offered, claimed and shown valid; presented to the tenant's verifier; revoked \
            (refused by the verifier, seen by the wallet); an SCA wallet provisioned with a PIN signing an operation \
            the bank's back end verifies, locked by wrong PINs and unlocked; the instance revoked.
            """)

    @Flag(help: "Show the tenant server's logs on standard error.")
    var verbose = false

    func run() async throws {
        var logger: Logger?
        if verbose {
            var serverLogger = Logger(label: "holdfast.demo.server") { StreamLogHandler.standardError(label: $0) }
            serverLogger.logLevel = .info
            logger = serverLogger
        }
        print("Holdfast demo: tethering and device registration\n")
        let steps = try await DemoRunner(serverLogger: logger, run: CommandRun.system()).run { step in
            print(Self.render(step))
        }
        let failed = steps.contains { $0.outcome == .failed }
        print(failed ? "The demo stopped at a failed step." : "All \(steps.count) steps passed.")
        if failed { throw ExitStatus.failure.exitCode }
    }

    /// `  3. Create an Android application … ok`, the explanation, then the details indented.
    static func render(_ step: DemoStep) -> String {
        let mark = step.outcome == .passed ? "ok" : "FAILED"
        var lines = ["\(String(step.number).leftPadded(to: 3)). \(step.title) … \(mark)", "     \(step.explanation)"]
        let width = step.details.map(\.name.count).max() ?? 0
        for detail in step.details {
            lines.append("       \(detail.name.rightPadded(to: width))  \(detail.value)")
        }
        return lines.joined(separator: "\n") + "\n"
    }
}

private extension String {
    func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: " ", count: width - count) + self
    }

    func rightPadded(to width: Int) -> String {
        count >= width ? self : self + String(repeating: " ", count: width - count)
    }
}
