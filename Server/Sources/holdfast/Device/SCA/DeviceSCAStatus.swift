import ArgumentParser
import HoldfastSDK

/// `holdfast device … sca status`: the wallet as the device knows it (no network).
extension DeviceSCA {
    struct Status: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "The wallet as the device knows it (no network).")
        @OptionGroup var options: RegisteredDeviceOptions
        @OptionGroup var sca: SCAOptions
        func run() async throws {
            try await DeviceCredentialOutput.run("sca status") { () async throws(HoldfastError) in
                DeviceCredentialOutput.json(Report(wallet: try await DeviceSCA.manager(options, sca).status()))
            }
        }
    }
}
