import Foundation
import HoldfastSDK

/// What the `holdfast device … sca` subcommands print (`sign` aside): one JSON object, and the events as the tenant
/// named them.
extension DeviceSCA {
    /// What the commands print besides `sign`.
    struct Report: Encodable {
        var ok = true
        var outcome: String?
        var credentials: String?
        var eligible: Bool?
        var reason: String?
        var denialReference: String?
        var features: [String]?
        var wallet: WalletStatus?
        var events: [EventView]?
    }

    struct EventView: Encodable {
        var type: String
        var reason: String?
        var pinAttemptsLeft: Int?
        var minimumVersion: String?
        var sunsetAt: Date?

        init(_ event: WalletEvent) {
            type = event.name
            switch event {
            case .walletLocked(let reason): self.reason = reason.rawValue
            case .deviceEligibilityLost(let reason): self.reason = reason.rawValue
            case .countersUpdated(let left): pinAttemptsLeft = left
            case .appSunsetScheduled(let version, let date):
                minimumVersion = version
                sunsetAt = date
            case .connectionError(let error): reason = error.code.rawValue
            default: break
            }
        }
    }
}
