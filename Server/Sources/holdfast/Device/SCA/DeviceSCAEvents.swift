import ArgumentParser
import HoldfastSDK

/// `holdfast device … sca events`: the tenant's new events, applied and printed.
extension DeviceSCA {
    struct Events: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Read the tenant's event feed from the last event the device applied, apply and print the new ones.")
        @OptionGroup var options: TetheredDeviceOptions
        @OptionGroup var sca: SCAOptions
        func run() async throws {
            try await DeviceCredentialOutput.run("sca events") { () async throws(HoldfastError) in
                let manager = try DeviceSCA.manager(options, sca)
                let events = try await manager.synchronize()
                return DeviceCredentialOutput.json(Report(wallet: try await manager.status(), events: events.map(EventView.init)))
            }
        }
    }
}
