import ArgumentParser
import HoldfastSDK

/// `holdfast device … sca logout` (no network).
extension DeviceSCA {
    struct Logout: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Log out: the next connect needs the current PIN (no network).")
        @OptionGroup var options: RegisteredDeviceOptions
        @OptionGroup var sca: SCAOptions
        func run() async throws {
            try await DeviceCredentialOutput.run("sca logout") { () async throws(HoldfastError) in
                let manager = try DeviceSCA.manager(options, sca)
                try await manager.logout()
                return DeviceCredentialOutput.json(Report(outcome: "logout", wallet: try await manager.status()))
            }
        }
    }
}
