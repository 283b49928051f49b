import ArgumentParser
import Attestation
import Foundation

/// `holdfast attest apple` — Apple App Attest attestation (Apple, "Validating apps that connect to your server",
/// attestation steps 1–9), verified by `AppAttestVerifier.verifyAttestation`.
struct AppleAttestCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "apple",
        abstract: "Verify an App Attest attestation object.",
        discussion: """
        Prints {"valid": true, "publicKey": <hex X9.62 point>, "keyId": <base64>, "environment", "appId", \
        "counter": 0, "receiptLength", "warnings": []} or {"valid": false, "code", "reason"}.
        """
    )

    @Option(help: ArgumentHelp("The attestation object: base64, or @file (binary CBOR or base64 text).", valueName: "@file|base64"))
    var attestation: String

    @Option(help: ArgumentHelp("The key identifier the app sent (32 bytes), base64.", valueName: "base64"))
    var keyId: String

    @Option(help: ArgumentHelp("The clientDataHash the app passed to attestKey, hex.", valueName: "hex"))
    var clientDataHash: String?

    @Option(help: ArgumentHelp("The clientDataHash, base64 (instead of --client-data-hash).", valueName: "base64"))
    var clientDataHashBase64: String?

    @Option(help: ArgumentHelp("The App ID: TEAMID.bundleId.", valueName: "TEAMID.BUNDLEID"))
    var appId: String

    @Option(help: ArgumentHelp("The environment the app is configured for: production or development.", valueName: "production|development"))
    var environment: String

    @Option(help: ArgumentHelp("Verification instant, ISO 8601 (default: now).", valueName: "ISO8601"))
    var at: String?

    @Option(help: ArgumentHelp("Trust this root (PEM or DER file) instead of the embedded Apple App Attestation Root CA.", valueName: "@pem"))
    var root: String?

    /// The option values, read and checked; nothing verified yet.
    struct Inputs {
        let attestationObject: [UInt8]
        let keyId: [UInt8]
        let clientDataHash: [UInt8]
        let appId: String
        let environment: AppAttestEnvironment
        let time: Date
        let roots: [AttestationCertificate]?
    }

    func inputs(run: CommandRun) throws(AttestArgument.Invalid) -> Inputs {
        let keyIdBytes = try AttestArgument.base64(keyId, option: "key-id")
        guard keyIdBytes.count == 32 else {
            throw AttestArgument.Invalid("--key-id must be 32 bytes (SHA-256 of the public key), got \(keyIdBytes.count)")
        }
        guard let environment = AppAttestEnvironment(rawValue: environment) else {
            throw AttestArgument.Invalid("--environment must be production or development")
        }
        return Inputs(
            attestationObject: try AttestArgument.base64OrFile(attestation, option: "attestation"),
            keyId: keyIdBytes,
            clientDataHash: try AttestArgument.hexOrBase64(hex: clientDataHash, base64: clientDataHashBase64, option: "client-data-hash"),
            appId: try Self.checkedAppId(appId),
            environment: environment,
            time: try AttestArgument.instant(at, run: run),
            roots: try root.map { argument throws(AttestArgument.Invalid) in try AttestArgument.roots([argument]) })
    }

    /// Reads the options, verifies, and says what was proved or which step failed.
    func outcome(run: CommandRun) async -> AttestOutcome {
        let inputs: Inputs
        do throws(AttestArgument.Invalid) { inputs = try self.inputs(run: run) } catch { return .failure(error) }
        let verifier = inputs.roots.map { AppAttestVerifier(trustedRoots: $0) } ?? AppAttestVerifier()
        do throws(AttestationError) {
            let result = try await verifier.verifyAttestation(
                inputs.attestationObject, keyId: inputs.keyId, clientDataHash: inputs.clientDataHash,
                appId: inputs.appId, environment: inputs.environment, at: inputs.time)
            return .verified(result, appId: inputs.appId)
        } catch {
            return .failure(error)
        }
    }

    func run() async throws {
        try AttestCommand.emit(await outcome(run: CommandRun.system()))
    }

    /// `TEAMID.bundleId`: a non-empty team id, a dot, a non-empty bundle id.
    static func checkedAppId(_ text: String, option: String = "app-id") throws(AttestArgument.Invalid) -> String {
        guard let dot = text.firstIndex(of: "."), dot != text.startIndex, text.index(after: dot) != text.endIndex else {
            throw AttestArgument.Invalid("--\(option) must be TEAMID.bundleId")
        }
        return text
    }
}
