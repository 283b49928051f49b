import Foundation
import HoldfastProtocol
import HoldfastSDK

/// A simulated device (DESIGN.md §5): the real `MobileCredentialHolder` with the Linux seams (state in a folder,
/// software keys, no platform attestation → the assertion path), one operation per run. Every outcome, failures
/// included, is the operation's typed report (`DeviceReport.Outcome`).
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
    func perform(_ operation: Operation, audience: String? = nil) async -> DeviceReport.Outcome {
        do {
            return try await run(operation, audience: audience)
        } catch {
            return .failure(.init(command: operation.rawValue, applicationId: configuration.applicationId, error: .init(error)))
        }
    }

    private func run(_ operation: Operation, audience: String?) async throws(HoldfastError) -> DeviceReport.Outcome {
        let holder = MobileCredentialHolder(seams: seams)
        try await holder.initialize(platformConfiguration: configuration)
        let header = DeviceReport.Header(command: operation.rawValue, ok: true, applicationId: configuration.applicationId)
        switch operation {
        case .register:
            let result: DeviceReport.Register.Result = switch try await holder.registerDevice() {
            case .registered: .registered
            case .pending: .pending
            case .alreadyRegistered: .alreadyRegistered
            }
            return .register(.init(header: header, result: result, registration: try await registration(holder)))
        case .status:
            return .state(.init(header: header, registration: try await registration(holder)))
        case .renew:
            try await holder.renewLicense()
            return .state(.init(header: header, registration: try await registration(holder)))
        case .rotate:
            try await holder.rotateKey()
            return .state(.init(header: header, registration: try await registration(holder)))
        case .walletAttestation:
            let attestation = try await holder.walletAttestation(audience: audience)
            let proof: String? = if let audience { try await holder.walletAttestationProof(audience: audience) } else { nil }
            return .walletAttestation(.init(header: header, walletAttestation: attestation.walletAttestation,
                                            walletAttestationExpiresAt: attestation.expiresAt, audience: audience,
                                            walletAttestationPoP: proof, registration: try await registration(holder)))
        }
    }

    /// What the stored registration now says.
    private func registration(_ holder: MobileCredentialHolder) async throws(HoldfastError) -> DeviceReport.Registration {
        DeviceReport.Registration(try await holder.registrationState())
    }
}
