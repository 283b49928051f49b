import ArgumentParser
import Crypto
import Foundation
import Plumbing
import StatusList

/// `holdfast bench status` (draft-ietf-oauth-status-list), on a 1,000,000-entry 2-bit list:
/// - a status lookup in the decoded list, against a read of one byte of a plain array at the same random
///   indices (target < 1 µs a lookup: essentially a memory read);
/// - decode + signature and chain verification of the list's CWT, against one raw ES256 verify;
/// - decode (inflate included) against pyeudiw's `StatusListTokenHelper.from_token` on the same token, in the same
///   run (target ≥ 10× faster).
struct StatusBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status", abstract: "Status list lookup, token decode + verify, and decode against pyeudiw.")

    @OptionGroup var options: BenchOptions
    @Option(help: "Entries in the list.") var entries = 1_000_000
    @Option(help: "The pyeudiw baseline script.") var baselineScript = "Benchmarks/pyeudiw_status_baseline.py"

    func run() async throws {
        if let benchBuildWarning { print(benchBuildWarning) }
        let uri = "https://issuer.example/v2/credentials/mobile/status-lists/1/token"
        let run = CommandRun.system()
        let fixtures = try CredentialBenchFixtures(extendedKeyUsage: [1, 3, 6, 1, 5, 5, 7, 3, 127], run: run)
        let (list, cwt) = try fixtures.statusToken(count: entries, uri: uri)
        print("input: \(entries) entries of 2 bits, CWT \(cwt.count) bytes")

        // 1. Lookups, 4,096 random indices per round, against a plain byte read at the same indices.
        let indices = (0..<4_096).map { _ in run.random.integer(in: 0..<entries) }
        let plain = [UInt8](repeating: 1, count: entries / 4)
        var sink = 0
        let (lookups, reads) = try await measureInterleaved(seconds: options.seconds, batch: 1, baseline: {
            for index in indices { sink &+= Int(plain[index >> 2]) }
        }, ours: {
            for index in indices { sink &+= Int(try list.status(at: index)) }
        })
        precondition(sink != 0)
        let lookupNanoseconds = 1e9 / (lookups.perSecond * Double(indices.count))
        let readNanoseconds = 1e9 / (reads.perSecond * Double(indices.count))
        print(String(format: "status lookup: %.1f ns (%.0f M/s)", lookupNanoseconds, lookups.perSecond * Double(indices.count) / 1e6))
        print(String(format: "plain byte read: %.1f ns", readNanoseconds))
        print(String(format: "ratio: %.2f× the read's time; target < 1,000 ns a lookup", lookupNanoseconds / readNanoseconds))

        // 2. Decode + verify against a raw ES256 verify.
        let verifier = StatusListTokenVerifier(trust: .anchors([fixtures.iaca]), maximumListBytes: entries)
        _ = try await verifier.verify(cwt, expectedURI: uri, at: run.now())
        let message = [UInt8](repeating: 0x5A, count: cwt.count)
        let signature = try fixtures.signerKey.signature(for: message)
        let publicKey = fixtures.signerKey.publicKey
        var valid = 0
        let now = run.now()
        let (verified, raw) = try await measureInterleaved(seconds: options.seconds, batch: 5, baseline: {
            if publicKey.isValidSignature(signature, for: message) { valid += 1 }
        }, ours: {
            _ = try await verifier.verify(cwt, expectedURI: uri, at: now)
        })
        precondition(valid > 0)
        printComparison(name: "token decode + verify (signature, chain, sub, exp)", ours: verified,
                        baselineName: "raw ES256 verify", baseline: raw.perSecond)

        // 3. Decode against pyeudiw, on the same token.
        let decoded = try measureRate(seconds: options.seconds, batch: 5, warmUp: 5) {
            sink &+= try SignedStatusListToken(cwt: cwt, maximumListBytes: entries).token.list.count
        }
        let hexFile = run.temporaryURL("holdfast-bench", suffix: ".hex")
        try Hex.encode(cwt).write(to: hexFile, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: hexFile) }
        let baseline = try PythonBaseline.run(python: PythonBaseline.interpreter(options.python), script: baselineScript,
                                              arguments: ["--hex-file", hexFile.path, "--seconds", String(options.seconds)])
        guard let baselineRate = baseline["ops_per_second"] as? Double else {
            throw ValidationError("the baseline printed no ops_per_second")
        }
        printComparison(name: "token decode (CBOR, COSE, inflate)", ours: decoded,
                        baselineName: "pyeudiw StatusListTokenHelper.from_token", baseline: baselineRate)
        print("target: ≥ 10.00×")
        // The floor under both: the system zlib inflating the list, with no Python and no token around it.
        if let inflateRate = baseline["zlib_decompress_ops_per_second"] as? Double {
            print(String(format: "of which zlib.decompress of the list alone (C): %.0f ops/s, %.0f%% of pyeudiw's decode time",
                         inflateRate, 100 * baselineRate / inflateRate))
        }
    }
}
