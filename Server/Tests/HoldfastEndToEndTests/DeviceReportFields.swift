import Foundation
@testable import holdfast

/// The members of a tethering command's report the end-to-end tests read, whichever report the command printed (nil
/// where its report has no such member, as the printed JSON omits it).
extension DeviceReport.Outcome {
    var registration: DeviceReport.Registration? {
        switch self {
        case .register(let report): report.registration
        case .state(let report): report.registration
        case .walletAttestation(let report): report.registration
        case .failure: nil
        }
    }

    var registered: Bool? { registration.map { $0.stored != nil } }
    var instanceId: String? { registration?.stored?.instanceId }
    var appAttestationType: String? { registration?.stored?.appAttestationType }
    var keyRotatedAt: Date? { registration?.stored?.keyRotatedAt }
    var licenseExpiresAt: Date? { registration?.stored?.licenseExpiresAt }

    var result: String? {
        if case .register(let report) = self { report.result.rawValue } else { nil }
    }

    var walletAttestation: String? {
        if case .walletAttestation(let report) = self { report.walletAttestation } else { nil }
    }

    var walletAttestationPoP: String? {
        if case .walletAttestation(let report) = self { report.walletAttestationPoP } else { nil }
    }
}
