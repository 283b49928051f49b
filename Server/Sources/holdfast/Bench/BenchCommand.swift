import ArgumentParser
import Foundation

/// `holdfast bench <name>` — benchmarks, never tests: each prints its figure next to a baseline measured in the
/// same run, and the ratio. Build in release mode (`swift run --package-path Server -c release holdfast bench …`) for figures worth
/// quoting.
struct BenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Benchmarks that print a ratio against a baseline measured in the same run.",
        subcommands: [CBORBench.self, AttestationBench.self, RegistrationBench.self, MDocBench.self, StatusBench.self, IssuanceBench.self,
                      HolderBench.self, PresentationBench.self, ProximityBench.self, SCABench.self]
    )
}

/// Options every benchmark shares.
struct BenchOptions: ParsableArguments {
    @Option(help: "Seconds to measure each side.")
    var seconds: Double = 3

    @Option(help: "The shared vectors folder.")
    var vectors: String = "../shared/vectors"

    @Option(help: "Python interpreter for baselines (default: HOLDFAST_PEERS_PYTHON, .peers/venv/bin/python, python3).")
    var python: String?

    func vectorURL(_ relative: String) -> URL {
        URL(fileURLWithPath: vectors).appendingPathComponent(relative)
    }
}

#if DEBUG
let benchBuildWarning: String? = "warning: this is a debug build; use `swift run --package-path Server -c release holdfast bench …` for real figures"
#else
let benchBuildWarning: String? = nil
#endif
