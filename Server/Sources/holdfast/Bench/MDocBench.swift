import ArgumentParser
import COSE
import Crypto
import Foundation
import MDoc

/// `holdfast bench mdoc`: issuerAuth signature + every digest of a 20-element mDoc (ISO/IEC 18013-5 §9.3.1 steps
/// of the MSO), against one raw ES256 verify of a message of the MSO's size, measured in alternating slices.
/// Target: at least 70 % of the raw verify rate.
struct MDocBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "mdoc", abstract: "issuerAuth + digests of a 20-element mDoc, against one raw ES256 verify.")

    @OptionGroup var options: BenchOptions
    @Option(help: "Elements in the mDoc.") var elements = 20

    func run() async throws {
        if let benchBuildWarning { print(benchBuildWarning) }
        let run = CommandRun.system()
        let fixtures = try CredentialBenchFixtures(extendedKeyUsage: IssuerTrust.mdlDSExtendedKeyUsage, run: run)
        let issuerSigned = try fixtures.mdoc(elements: elements)
        let key = COSEVerificationKey.p256(fixtures.signerKey.publicKey)
        // The check is real: what is measured passes.
        try MDocVerifier.verifyIssuerSignature(issuerSigned, key: key)
        try MDocVerifier.verifyDigests(issuerSigned)
        _ = try await MDocVerifier(trust: IssuerTrust(iacas: [fixtures.iaca])).verify(issuerSigned, at: run.now())

        let message = [UInt8](repeating: 0x5A, count: issuerSigned.mso.taggedBytes.count)
        let signature = try fixtures.signerKey.signature(for: message)
        let publicKey = fixtures.signerKey.publicKey
        var valid = 0
        let (ours, raw) = try await measureInterleaved(seconds: options.seconds, baseline: {
            if publicKey.isValidSignature(signature, for: message) { valid += 1 }
        }, ours: {
            try MDocVerifier.verifyIssuerSignature(issuerSigned, key: key)
            try MDocVerifier.verifyDigests(issuerSigned)
        })
        precondition(valid > 0)
        print("input: a \(elements)-element mDL, MSO \(issuerSigned.mso.taggedBytes.count) bytes, SHA-256 digests")
        printComparison(name: "issuerAuth + \(elements) digests", ours: ours,
                        baselineName: "raw ES256 verify (\(message.count) bytes)", baseline: raw.perSecond)
        print("target: ≥ 0.70×")
    }
}
