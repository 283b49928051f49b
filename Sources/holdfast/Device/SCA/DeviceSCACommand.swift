import ArgumentParser
import Foundation
import HoldfastProtocol
import HoldfastSDK

/// `holdfast device --state DIR --tenant URL --application ID sca provision|connect|sign|change-pin|logout|status|
/// events|eligibility` — the SDK's SCA wallet on a simulated device (README "The `holdfast` command"). Each prints one
/// JSON object (`sign`: the compact JWS alone); a failure prints `{"ok": false, "command", "error": {code, message, …}}`
/// (`sign`: nothing), its one line on standard error, and exits with its status (README "Exit codes"). The PIN is
/// given as an option and is never printed.
struct DeviceSCA: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sca",
        abstract: "The SCA wallet: provision, connect, sign operations, change the PIN, read the tenant's events.",
        discussion: """
            The wallet key is registered with an assertion (Linux has no platform attestation), so the holder \
            application must not require attestation. status needs no network. Biometry has no prompt here: wallets \
            protected by a PIN or by nothing work from the command line.
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

    static func manager(_ options: some DeviceSettings, _ sca: SCAOptions) throws(HoldfastError) -> WalletManager {
        var seams = PlatformSeams.linux(stateDirectory: options.stateURL)
        if let model = sca.model { seams.deviceInfo.deviceModel = model }
        seams.deviceIntegrity = ScriptedDeviceIntegrity(signals: sca.integritySignals)
        return try WalletManager(seams: seams, configuration: WalletConfiguration(platform: options.platformConfiguration, appVersion: sca.appVersion))
    }

    /// Connects with `pin` as the current credentials (after a logout) or the new ones (after provisioning or a
    /// reset); anything but a connection is an error here.
    static func connected(_ manager: WalletManager, pin: String?) async throws(HoldfastError) -> Wallet {
        let credentials = pin.map(WalletCredentials.pin)
        switch await manager.connect(currentCredentials: credentials, newCredentials: credentials) {
        case .connectionSuccess(let wallet): return wallet
        case .provisioningRequired: throw HoldfastError(.walletNotProvisioned, "no wallet here: run sca provision first")
        case .credentialsRequired(let kind): throw HoldfastError(.credentialsRequired, "the wallet needs the \(kind.rawValue) PIN: give --pin")
        case .connectionError(let error): throw error
        }
    }
}
