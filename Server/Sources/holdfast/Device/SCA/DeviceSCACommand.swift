import ArgumentParser
import Foundation
import HoldfastProtocol
import HoldfastSDK

/// `holdfast device --state DIR --tenant URL --application ID sca provision|connect|sign|change-pin|logout|status|
/// events|eligibility` — the SDK's SCA wallet on a simulated device (docs/command-line.md "The `holdfast` command"). Each prints one
/// JSON object (`sign`: the compact JWS alone); a failure prints `{"ok": false, "command", "error": {code, message, …}}`
/// (`sign`: nothing), its one line on standard error, and exits with its status (docs/command-line.md "Exit codes"). The PIN is
/// given as an option and is never printed.
struct DeviceSCA: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sca",
        abstract: "The SCA wallet: provision, connect, sign operations, change the PIN, read the tenant's events.",
        discussion: """
            The wallet key is registered with an assertion (Linux has no platform attestation), so the holder \
            application must not require attestation. status needs no network. The simulated device has no \
            biometric sensor: --biometry stands for a face or finger that matches (provision, connect and sign of a \
            wallet protected by biometry, or by PIN or biometry); without it no biometric check passes.
            """,
        subcommands: [Eligibility.self, Provision.self, Connect.self, Sign.self, ChangePin.self, Logout.self, Status.self, Events.self])

    /// The options of the SCA subcommands besides the device's own.
    struct SCAOptions: ParsableArguments {
        @Option(name: .customLong("app-version"), help: "The banking app's version, as the tenant's eligibility rules read it.")
        var appVersion = "1.0.0"

        @Option(name: .customLong("model"), help: "The device model reported to the tenant (default: this system's).")
        var model: String?

        @Option(name: .customLong("integrity-signal"), help: "An integrity signal the simulated device reports (root, jailbreak …); repeatable.")
        var integritySignals: [String] = []
    }

    /// `--biometry`, for the commands that give credentials (provision, connect, sign).
    struct BiometryOption: ParsableArguments {
        @Flag(name: .customLong("biometry"),
              help: "The simulated person passes the biometric check (no sensor here: the flag stands for a matching face or finger).")
        var biometry = false
    }

    static func manager(_ options: some DeviceSettings, _ sca: SCAOptions, biometry: Bool = false) throws(HoldfastError) -> WalletManager {
        var seams = PlatformSeams.linux(stateDirectory: options.stateURL)
        // docs/command-line.md "The `holdfast` command": --biometry answers the one biometric prompt a command makes.
        seams.userVerification = ScriptedUserVerification(answers: biometry ? [.verified] : [])
        if let model = sca.model { seams.deviceInfo.deviceModel = model }
        seams.deviceIntegrity = ScriptedDeviceIntegrity(signals: sca.integritySignals)
        return try WalletManager(seams: seams, configuration: WalletConfiguration(platform: options.platformConfiguration, appVersion: sca.appVersion))
    }

    /// The credentials a command gives: the PIN, or else the (simulated) biometry.
    static func credentials(pin: String?, biometry: Bool) -> WalletCredentials? {
        pin.map(WalletCredentials.pin) ?? (biometry ? .biometry : nil)
    }

    /// Connects with `credentials` as the current ones (after a logout) or the new ones (after provisioning or a
    /// reset); anything but a connection is an error here.
    static func connected(_ manager: WalletManager, credentials: WalletCredentials?) async throws(HoldfastError) -> Wallet {
        switch await manager.connect(currentCredentials: credentials, newCredentials: credentials) {
        case .connectionSuccess(let wallet): return wallet
        case .provisioningRequired: throw HoldfastError(.walletNotProvisioned, "no wallet here: run sca provision first")
        case .credentialsRequired(let kind):
            throw HoldfastError(.credentialsRequired, "the wallet needs its \(kind.rawValue) credentials: give --pin (or --biometry for a biometric wallet)")
        case .connectionError(let error): throw error
        }
    }
}
