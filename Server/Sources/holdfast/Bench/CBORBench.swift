import ArgumentParser
import CBOR
import Foundation

/// Decodes and re-encodes the ISO 18013-5 Annex D DeviceResponse in a loop, against cbor2 (Python, with its C
/// extension) doing the same in the same run. Target: at least 3× cbor2's rate.
struct CBORBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cbor",
        abstract: "Decode + re-encode the Annex D DeviceResponse, against cbor2."
    )

    @OptionGroup var options: BenchOptions

    @Option(help: "The baseline script.")
    var baselineScript: String = "Benchmarks/cbor2_baseline.py"

    func run() throws {
        if let benchBuildWarning { print(benchBuildWarning) }
        let vectorFile = options.vectorURL("mdoc/iso18013-5-annex-d.json")
        guard let data = FileManager.default.contents(atPath: vectorFile.path),
              let json = try JSONSerialization.jsonObject(with: data) as? [String: Any],
              let hex = (json["hex"] as? [String: Any])?["DEVICE_RESPONSE"] as? String,
              let bytes = ByteInput.hex(hex) else {
            throw ValidationError("cannot read DEVICE_RESPONSE from \(vectorFile.path)")
        }

        // The work measured: decode every item of the response, then encode the decoded value again.
        let reencoded = try CBOR.decode(bytes).value.encoded()
        print("input: ISO 18013-5 Annex D DeviceResponse, \(bytes.count) bytes; re-encoding is \(reencoded == bytes ? "byte-identical" : "different (\(reencoded.count) bytes)")")
        var sink = 0
        let ours = try measureRate(seconds: options.seconds) {
            let decoded = try CBOR.decode(bytes)
            sink &+= decoded.value.encoded().count
        }
        precondition(sink != 0)

        let hexFile = CommandRun.system().temporaryURL("holdfast-bench", suffix: ".hex")
        try hex.write(to: hexFile, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: hexFile) }
        let baseline = try PythonBaseline.run(
            python: PythonBaseline.interpreter(options.python), script: baselineScript,
            arguments: ["--hex-file", hexFile.path, "--seconds", String(options.seconds)])
        guard let baselineRate = baseline["ops_per_second"] as? Double else {
            throw ValidationError("the baseline printed no ops_per_second")
        }
        let cExtension = (baseline["c_extension"] as? Bool) == true ? "with C extension" : "WITHOUT C extension"
        printComparison(name: "holdfast CBOR decode+encode", ours: ours,
                        baselineName: "cbor2 (\(cExtension)) decode+encode", baseline: baselineRate)
        print("target: ≥ 3.00×")
    }
}
