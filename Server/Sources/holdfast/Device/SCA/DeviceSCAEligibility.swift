import ArgumentParser
import HoldfastSDK

/// `holdfast device … sca eligibility`: the tenant's eligibility check for this device.
extension DeviceSCA {
    struct Eligibility: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Ask the tenant whether this device may hold a wallet.")
        @OptionGroup var options: TetheredDeviceOptions
        @OptionGroup var sca: SCAOptions
        func run() async throws {
            try await DeviceCredentialOutput.run("sca eligibility") { () async throws(HoldfastError) in
                switch await (try DeviceSCA.manager(options, sca)).provisioning.checkEligibility() {
                case .deviceEligible(let features):
                    return DeviceCredentialOutput.json(Report(eligible: true, features: features.map(\.rawValue).sorted()))
                case .deviceNotEligible(let reason, let reference):
                    return DeviceCredentialOutput.json(Report(eligible: false, reason: reason.rawValue, denialReference: reference))
                case .checkEligibilityError(let error):
                    throw error
                }
            }
        }
    }
}
