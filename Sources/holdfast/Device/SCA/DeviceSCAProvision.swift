import ArgumentParser
import HoldfastSDK

/// `holdfast device … sca provision --activation-code C [--pin P]`: provisioning with the one-time code, then the PIN.
extension DeviceSCA {
    struct Provision: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Provision the wallet with its one-time activation code, then set the PIN (PIN wallets).")
        @OptionGroup var options: TetheredDeviceOptions
        @OptionGroup var sca: SCAOptions
        @Option(name: .customLong("activation-code"), help: "The one-time code the bank's back end got from the tenant.")
        var activationCode: String
        @Option(help: "The PIN to set (6 to 8 digits), for a wallet protected by a PIN.")
        var pin: String?
        func run() async throws {
            try await DeviceCredentialOutput.run("sca provision") { () async throws(HoldfastError) in
                let manager = try DeviceSCA.manager(options, sca)
                if case .provisioningError(let error) = await manager.provisioning.provision(activationCode: activationCode) { throw error }
                var report = Report(outcome: "provisioningSuccess")
                if let pin {
                    _ = try await DeviceSCA.connected(manager, pin: pin)
                    report.outcome = "connectionSuccess"
                }
                report.wallet = try await manager.status()
                return DeviceCredentialOutput.json(report)
            }
        }
    }
}
