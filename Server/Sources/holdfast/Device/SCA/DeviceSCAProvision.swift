import ArgumentParser
import HoldfastProtocol
import HoldfastSDK

/// `holdfast device … sca provision --activation-code C [--pin P | --biometry]`: provisioning with the one-time code,
/// then the credentials.
extension DeviceSCA {
    struct Provision: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Provision the wallet with its one-time activation code, then set the PIN (or, with --biometry, the biometry).")
        @OptionGroup var options: TetheredDeviceOptions
        @OptionGroup var sca: SCAOptions
        @OptionGroup var biometryOption: BiometryOption
        @Option(name: .customLong("activation-code"), help: "The one-time code the bank's back end got from the tenant.")
        var activationCode: String
        @Option(help: "The PIN to set (6 to 8 digits), for a wallet protected by a PIN.")
        var pin: String?
        func run() async throws {
            try await DeviceCredentialOutput.run("sca provision") { () async throws(HoldfastError) in
                // Every input is checked before the one-time code is spent (docs/command-line.md "The `holdfast` command").
                try pin.map(WalletCredentials.pin)?.validate()
                let manager = try DeviceSCA.manager(options, sca, biometry: biometryOption.biometry)
                if case .provisioningError(let error) = await manager.provisioning.provision(activationCode: activationCode) {
                    guard error.code == .walletAlreadyProvisioned else { throw error }
                    throw HoldfastError(error.code, error.message + " (sca status shows it; sca connect --pin P sets the PIN of a wallet that has none yet)")
                }
                var report = Report(outcome: "provisioningSuccess")
                if let credentials = DeviceSCA.credentials(pin: pin, biometry: biometryOption.biometry) {
                    _ = try await DeviceSCA.connected(manager, credentials: credentials)
                    report.outcome = "connectionSuccess"
                }
                report.wallet = try await manager.status()
                return DeviceCredentialOutput.json(report)
            }
        }
    }
}
