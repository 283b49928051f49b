import ArgumentParser
import Attestation
import Foundation

/// `holdfast attest apple-assertion` — Apple App Attest assertion (Apple, "Validating apps that connect to your
/// server", assertion steps 1–6), verified by `AppAttestVerifier.verifyAssertion` against the stored key and counter.
struct AppleAssertionCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "apple-assertion",
        abstract: "Verify an App Attest assertion with the stored public key and counter.",
        discussion: """
        Prints {"valid": true, "counter": <new counter to store>, "previousCounter", "appId", "warnings": []} or \
        {"valid": false, "code", "reason"}.
        """
    )

    @Option(help: ArgumentHelp("The assertion ({signature, authenticatorData} CBOR): base64, or @file (binary or base64 text).", valueName: "@file|base64"))
    var assertion: String

    @Option(help: ArgumentHelp("The attested key: hex X9.62 point (65 bytes), base64 SubjectPublicKeyInfo, or @pem.", valueName: "hex|base64|@pem"))
    var publicKey: String

    @Option(help: ArgumentHelp("SHA-256 of the client data, hex.", valueName: "hex"))
    var clientDataHash: String?

    @Option(help: ArgumentHelp("SHA-256 of the client data, base64 (instead of --client-data-hash).", valueName: "base64"))
    var clientDataHashBase64: String?

    @Option(help: ArgumentHelp("The App ID: TEAMID.bundleId.", valueName: "TEAMID.BUNDLEID"))
    var appId: String

    @Option(help: ArgumentHelp("The counter stored from the last attestation or assertion.", valueName: "N"))
    var counter: String

    struct Inputs {
        let assertion: [UInt8]
        let publicKey: [UInt8]
        let clientDataHash: [UInt8]
        let appId: String
        let previousCounter: UInt32
    }

    func inputs() throws(AttestArgument.Invalid) -> Inputs {
        Inputs(
            assertion: try AttestArgument.base64OrFile(assertion, option: "assertion"),
            publicKey: try AttestArgument.publicKey(publicKey),
            clientDataHash: try AttestArgument.hexOrBase64(hex: clientDataHash, base64: clientDataHashBase64, option: "client-data-hash"),
            appId: try AppleAttestCommand.checkedAppId(appId),
            previousCounter: try AttestArgument.counter(counter, option: "counter"))
    }

    func outcome() async -> AttestOutcome {
        let inputs: Inputs
        do throws(AttestArgument.Invalid) { inputs = try self.inputs() } catch { return .failure(error) }
        do throws(AttestationError) {
            let result = try AppAttestVerifier().verifyAssertion(
                inputs.assertion, publicKey: inputs.publicKey, clientDataHash: inputs.clientDataHash,
                appId: inputs.appId, previousCounter: inputs.previousCounter)
            return .verified(result, previousCounter: inputs.previousCounter, appId: inputs.appId)
        } catch {
            return .failure(error)
        }
    }

    func run() async throws {
        try AttestCommand.emit(await outcome())
    }
}
