import ArgumentParser
import HoldfastSDK

/// `holdfast device … sca connect [--pin P | --biometry]`: a connection and its outcome.
extension DeviceSCA {
    struct Connect: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Connect: read the tenant's events, and give the PIN when the wallet asks for one.")
        @OptionGroup var options: TetheredDeviceOptions
        @OptionGroup var sca: SCAOptions
        @OptionGroup var biometryOption: BiometryOption
        @Option(help: "The PIN: the current one after a logout, a new one after provisioning or a reset.")
        var pin: String?
        func run() async throws {
            try await DeviceCredentialOutput.run("sca connect") { () async throws(HoldfastError) in
                let manager = try DeviceSCA.manager(options, sca, biometry: biometryOption.biometry)
                let credentials = DeviceSCA.credentials(pin: pin, biometry: biometryOption.biometry)
                var report = Report()
                switch await manager.connect(currentCredentials: credentials, newCredentials: credentials) {
                case .connectionSuccess: report.outcome = "connectionSuccess"
                case .provisioningRequired: report.outcome = "provisioningRequired"
                case .credentialsRequired(let kind):
                    report.outcome = "credentialsRequired"
                    report.credentials = kind.rawValue
                case .connectionError(let error): throw error
                }
                report.wallet = try await manager.status()
                return DeviceCredentialOutput.json(report)
            }
        }
    }
}
