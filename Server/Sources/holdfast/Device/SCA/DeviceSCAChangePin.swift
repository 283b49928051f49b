import ArgumentParser
import HoldfastProtocol
import HoldfastSDK

/// `holdfast device … sca change-pin --pin P --new-pin Q`.
extension DeviceSCA {
    struct ChangePin: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "change-pin", abstract: "Replace the PIN (the current one is checked and counted).")
        @OptionGroup var options: TetheredDeviceOptions
        @OptionGroup var sca: SCAOptions
        @Option(help: "The current PIN.")
        var pin: String
        @Option(name: .customLong("new-pin"), help: "The new PIN (6 to 8 digits).")
        var newPin: String
        func run() async throws {
            try await DeviceCredentialOutput.run("sca change-pin") { () async throws(HoldfastError) in
                // Both PINs are checked before the current one is sent and counted.
                try WalletCredentials.pin(pin).validate()
                try WalletCredentials.pin(newPin).validate()
                let manager = try DeviceSCA.manager(options, sca)
                _ = try await DeviceSCA.connected(manager, credentials: .pin(pin))
                try await manager.changeCredentials(current: .pin(pin), new: .pin(newPin))
                return DeviceCredentialOutput.json(Report(outcome: "credentialsChanged", wallet: try await manager.status()))
            }
        }
    }
}
