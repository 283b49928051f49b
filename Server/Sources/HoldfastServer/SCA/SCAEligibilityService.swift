import Foundation
import HoldfastAdmin
import HoldfastProtocol
import JOSE
import Logging

/// Device eligibility for SCA wallets (docs/server-api.md "SCA wallet (back end)"): the tenant's rules (blocked device models, minimum app
/// versions with their sunset dates), the check a device makes before it is provisioned — a denial recorded under
/// the reference the device shows its user — and, when the rules change, the events that tell wallets already out
/// there: `deviceEligibilityLost` (their model is now blocked, or their version no longer supported) and
/// `appSunsetScheduled` (their version stops being supported at a date).
struct SCAEligibilityService: Sendable {
    static let maximumBlockedModels = 1_000
    static let maximumVersionRules = 100
    static let maximumSignals = 20
    static let denialRetention: TimeInterval = 90 * 24 * 3600
    static let walletPage = 500

    let rulesStore: SCARulesStore
    let wallets: SCAWalletStore
    let applications: HolderApplicationService
    /// Draws the denials' references.
    let random: any RandomSource
    let logger: Logger
    /// Denials recorded per hour at most, over all sources.
    var maximumDenialsPerHour: Int64 = 10_000

    func rules() async throws -> SCAEligibilityRules {
        try await rulesStore.eligibilityRules() ?? SCAEligibilityRules()
    }

    /// Replaces the rules, then tells each activated wallet what changed for it (events appended in pages of wallets,
    /// each page in its own transaction).
    func replace(_ rules: SCAEligibilityRules, now: Date) async throws -> SCAEligibilityRules {
        var errors: [ProblemDetails.FieldError] = []
        if rules.blockedDeviceModels.count > Self.maximumBlockedModels
            || rules.blockedDeviceModels.contains(where: { $0.isEmpty || $0.unicodeScalars.count > SCAWalletService.maximumDetailLength }) {
            errors.append(.init(field: "blockedDeviceModels", code: ProblemDetails.FieldError.invalidValue,
                                detail: "at most \(Self.maximumBlockedModels) model identifiers of 1 to \(SCAWalletService.maximumDetailLength) characters"))
        }
        if rules.minimumAppVersions.count > Self.maximumVersionRules {
            errors.append(.init(field: "minimumAppVersions", code: ProblemDetails.FieldError.tooLong, detail: "at most \(Self.maximumVersionRules) rules"))
        }
        for (index, rule) in rules.minimumAppVersions.enumerated() where !AppVersion.isWellFormed(rule.version) {
            errors.append(.init(field: "minimumAppVersions[\(index)].version", code: ProblemDetails.FieldError.invalidValue,
                                detail: "dotted whole numbers, such as 2.4 or 3.0.1"))
        }
        for (index, rule) in rules.minimumAppVersions.enumerated() {
            if let id = rule.applicationId, !ResourceID.isValid(id) {
                errors.append(.init(field: "minimumAppVersions[\(index)].applicationId", code: ProblemDetails.FieldError.invalidValue,
                                    detail: "a holder application id"))
            }
        }
        guard errors.isEmpty else { throw ProblemError.validation(errors) }
        let previous = try await self.rules()
        try await rulesStore.replaceEligibility(rules, at: now)
        try await announce(previous: previous, current: rules, now: now)
        logger.info("sca eligibility rules replaced", metadata: ["blocked_models": .stringConvertible(rules.blockedDeviceModels.count),
                                                                 "version_rules": .stringConvertible(rules.minimumAppVersions.count)])
        return rules
    }

    /// A device's check before provisioning: integrity first, then its model, then its app version. A denial is
    /// recorded (its reference is what the device's user quotes); an eligible device hears of a scheduled sunset.
    func check(_ request: SCAEligibilityCheckRequest, now: Date) async throws -> SCAEligibilityCheckResponse {
        var errors: [ProblemDetails.FieldError] = []
        for (field, value) in [("device.model", request.device.model), ("device.appVersion", request.device.appVersion)] {
            if let value, value.unicodeScalars.count > SCAWalletService.maximumDetailLength {
                errors.append(.init(field: field, code: ProblemDetails.FieldError.tooLong, detail: "at most \(SCAWalletService.maximumDetailLength) characters"))
            }
        }
        let signals = request.integrity.signals ?? []
        if signals.count > Self.maximumSignals || signals.contains(where: { $0.isEmpty || $0.utf8.count > 64 }) {
            errors.append(.init(field: "integrity.signals", code: ProblemDetails.FieldError.invalidValue,
                                detail: "at most \(Self.maximumSignals) names of 1 to 64 bytes"))
        }
        guard errors.isEmpty else { throw ProblemError.validation(errors) }
        _ = try await applications.get(id: request.applicationId)
        let rules = try await rules()
        let reason: SCAIneligibilityReason?
        if request.integrity.compromised {
            reason = SCAIneligibilityReason.deviceIntegrity
        } else if let model = request.device.model, rules.blockedDeviceModels.contains(model) {
            reason = SCAIneligibilityReason.deviceModelBlocked
        } else if rules.unsupportedVersion(applicationId: request.applicationId, appVersion: request.device.appVersion, at: now) != nil {
            reason = SCAIneligibilityReason.appVersionUnsupported
        } else {
            reason = nil
        }
        guard let reason else {
            return SCAEligibilityCheckResponse(
                eligible: true, appSunset: rules.scheduledSunset(applicationId: request.applicationId, appVersion: request.device.appVersion, at: now))
        }
        let reference = "DEN-" + random.identifier()
        try await rulesStore.deleteDenials(before: now.addingTimeInterval(-Self.denialRetention))
        // The route is public: past the hourly cap a denial is answered but not stored, so that no flood of checks
        // can fill the database (the per-source limit bounds each source; this bounds them all).
        let lastHour = try await rulesStore.denialCount(since: now.addingTimeInterval(-3_600))
        guard lastHour < maximumDenialsPerHour else {
            logger.warning("sca eligibility denial not recorded: hourly cap reached", metadata: ["reason": .string(reason.rawValue)])
            return SCAEligibilityCheckResponse(eligible: false, reason: reason, denialReference: reference)
        }
        try await rulesStore.insertDenial(SCAEligibilityDenial(
            reference: reference, applicationId: request.applicationId, reason: reason,
            device: SCAWallet.Device(model: request.device.model, appVersion: request.device.appVersion), signals: signals,
            createdAt: now))
        logger.info("sca eligibility denied", metadata: ["reference": .string(reference), "reason": .string(reason.rawValue)])
        return SCAEligibilityCheckResponse(eligible: false, reason: reason, denialReference: reference)
    }

    func denial(reference: String) async throws -> SCAEligibilityDenial {
        guard let denial = try await rulesStore.denial(reference: reference) else { throw SCAError.denialNotFound(reference: reference) }
        return denial
    }

    /// The events the new rules make for activated wallets: `deviceEligibilityLost` when a wallet that was eligible
    /// under the previous rules is not under these, `appSunsetScheduled` when its version now has a sunset date it
    /// did not have (or a different one).
    private func announce(previous: SCAEligibilityRules, current: SCAEligibilityRules, now: Date) async throws {
        var after = ""
        while true {
            let devices = try await wallets.activatedDevices(after: after, limit: Self.walletPage)
            guard let last = devices.last else { return }
            after = last.walletId
            try await wallets.transaction { transaction in
                for device in devices {
                    let id = device.walletId
                    let application = device.applicationId
                    let model = device.model
                    let version = device.appVersion
                    func ineligibility(_ rules: SCAEligibilityRules) -> SCAIneligibilityReason? {
                        if let model, rules.blockedDeviceModels.contains(model) { return SCAIneligibilityReason.deviceModelBlocked }
                        if rules.unsupportedVersion(applicationId: application, appVersion: version, at: now) != nil {
                            return SCAIneligibilityReason.appVersionUnsupported
                        }
                        return nil
                    }
                    if let reason = ineligibility(current), ineligibility(previous) == nil {
                        try await transaction.appendEvent(walletId: id, type: .deviceEligibilityLost, data: ["reason": .string(reason.rawValue)],
                                                          now: now)
                    }
                    let sunset = current.scheduledSunset(applicationId: application, appVersion: version, at: now)
                    if let sunset, let date = sunset.sunsetAt,
                       previous.scheduledSunset(applicationId: application, appVersion: version, at: now)?.sunsetAt != date {
                        try await transaction.appendEvent(
                            walletId: id, type: .appSunsetScheduled,
                            data: ["minimumVersion": .string(sunset.version), "sunsetAt": .string(HoldfastJSON.formatDate(date))], now: now)
                    }
                }
            }
        }
    }
}
