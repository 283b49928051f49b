import Foundation
import HoldfastProtocol
import HoldfastSDK

/// A simulated device (DESIGN.md §5): the real `MobileCredentialHolder` with the Linux seams (state in a folder,
/// software keys, no platform attestation → the assertion path), one operation per run. Every outcome, failures
/// included, is a `DeviceReport`.
struct DeviceSession: Sendable {
    enum Operation: String, Sendable, CaseIterable {
        case register
        case status
        case renew
        case rotate
        case walletAttestation = "wallet-attestation"
    }

    let configuration: PlatformConfiguration
    let seams: PlatformSeams

    init(configuration: PlatformConfiguration, stateDirectory: URL) {
        self.configuration = configuration
        var seams = PlatformSeams.linux(stateDirectory: stateDirectory)
        // One explicit tethering operation per run: nothing automatic runs beside it.
        seams.tetheringScheduler = ManualTetheringScheduler()
        self.seams = seams
    }

    init(options: some DeviceSettings) {
        self.init(configuration: options.platformConfiguration, stateDirectory: options.stateURL)
    }

    /// Runs `operation`; `audience` is the issuer a wallet attestation is meant for (the PoP is made when given).
    func perform(_ operation: Operation, audience: String? = nil) async -> DeviceReport {
        let command = operation.rawValue
        do {
            return try await run(operation, audience: audience)
        } catch {
            return .failure(command: command, applicationId: configuration.applicationId, error)
        }
    }

    private func run(_ operation: Operation, audience: String?) async throws(HoldfastError) -> DeviceReport {
        let holder = MobileCredentialHolder(seams: seams)
        try await holder.initialize(platformConfiguration: configuration)
        var report = DeviceReport(command: operation.rawValue, applicationId: configuration.applicationId)
        switch operation {
        case .register:
            let result = try await holder.registerDevice()
            switch result {
            case .registered: report.result = "registered"
            case .pending: report.result = "pending"
            case .alreadyRegistered: report.result = "alreadyRegistered"
            }
        case .status:
            break
        case .renew:
            try await holder.renewLicense()
        case .rotate:
            try await holder.rotateKey()
        case .walletAttestation:
            let attestation = try await holder.walletAttestation(audience: audience)
            report.walletAttestation = attestation.walletAttestation
            report.walletAttestationExpiresAt = attestation.expiresAt
            if let audience {
                report.audience = audience
                report.walletAttestationPoP = try await holder.walletAttestationProof(audience: audience)
            }
        }
        report.describe(try await holder.registrationState())
        return report
    }
}
