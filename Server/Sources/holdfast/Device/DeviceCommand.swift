import ArgumentParser
import Foundation
import HoldfastProtocol

/// `holdfast device --state DIR register|status|renew|rotate|wallet-attestation [--tenant URL] --application ID` —
/// a simulated device running the real SDK (docs/command-line.md "The `holdfast` command"). Prints one JSON object per call; on failure
/// the object carries the SDK's error code, its one line goes to standard error, and the exit status is the one of
/// docs/command-line.md "Exit codes".
struct DeviceCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "device",
        abstract: "A simulated device: the holder SDK with the Linux seams, state kept in a folder.",
        discussion: """
            Registration uses the assertion path (Linux has no platform attestation), so the holder application \
            must not require attestation\(DeviceCommand.devModeNote). status reads the stored registration and needs \
            no network, so no --tenant.
            """,
        subcommands: [Register.self, Status.self, Renew.self, Rotate.self, WalletAttestation.self,
                      DeviceOffer.self, DeviceClaim.self, DeviceCredentials.self, DeviceIssuers.self, DevicePresent.self, DevicePresentDigital.self,
                      DeviceVerifiers.self, DevicePresentProximity.self, DeviceReaders.self, DeviceSCA.self])

    #if DEBUG
    static let devModeNote = ", or allow the dev bypass (--dev-mode, debug builds only)"
    #else
    static let devModeNote = ""
    #endif

    /// Runs one operation and prints its report; a failed operation is the command's one failure (`CommandFailure`).
    static func execute(_ operation: DeviceSession.Operation, options: some DeviceSettings, audience: String? = nil) async throws {
        let outcome = await DeviceSession(options: options).perform(operation, audience: audience)
        print(outcome.json())
        if let error = outcome.error { throw failure(operation, error) }
    }

    /// The failure of an operation, with what to do when the application needs attestation.
    static func failure(_ operation: DeviceSession.Operation, _ error: DeviceReport.Failure) -> CommandFailure {
        var error = error
        if error.code == HoldfastErrorCode.attestationRequired.rawValue {
            error.message += " — holdfast device registers with an assertion (Linux has no App Attest or Key Attestation): "
                + "use an application with \"appAttest\": {\"required\": false} (iOS) or \"keyAttestation\": "
                + "{\"required\": false} (Android)"
        }
        return error.commandFailure(operation.rawValue)
    }

    /// The line on standard error for a failed operation.
    static func failureLine(_ operation: DeviceSession.Operation, code: String, message: String) -> String {
        failure(operation, DeviceReport.Failure(code: code, message: message)).line
    }

    struct Register: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Register the device (challenge, new key, assertion, registration); idempotent.")
        @OptionGroup var options: TetheredDeviceOptions
        func run() async throws { try await DeviceCommand.execute(.register, options: options) }
    }

    struct Status: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Show the stored registration of --application (no network: --tenant is not needed).")
        @OptionGroup var options: RegisteredDeviceOptions
        func run() async throws { try await DeviceCommand.execute(.status, options: options) }
    }

    struct Renew: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Renew the license now.")
        @OptionGroup var options: TetheredDeviceOptions
        func run() async throws { try await DeviceCommand.execute(.renew, options: options) }
    }

    struct Rotate: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Rotate the instance key (the instance id is kept).")
        @OptionGroup var options: TetheredDeviceOptions
        func run() async throws { try await DeviceCommand.execute(.rotate, options: options) }
    }

    struct WalletAttestation: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "wallet-attestation",
            abstract: "Get an OAuth client attestation JWT from the tenant (and its PoP for --audience).")
        @OptionGroup var options: TetheredDeviceOptions
        @Option(help: "The issuer the attestation is for; the PoP JWT addressed to it is printed too.")
        var audience: String?
        func run() async throws { try await DeviceCommand.execute(.walletAttestation, options: options, audience: audience) }
    }
}
