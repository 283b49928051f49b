import Foundation
import HoldfastAdmin
import HoldfastProtocol
import Logging
import SQLKit

/// Device eligibility for SCA wallets (README "SCA wallet"): the tenant's rules (blocked device models, minimum app
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

    /// The rules are read on every check (another node may have replaced them) and decoded once per document.
    private static let documents = DecodedJSONCache<SCAEligibilityRules>(capacity: 4)

    let database: HoldfastDatabase
    let applications: HolderApplicationService
    let logger: Logger
    /// Denials recorded per hour at most, over all sources.
    var maximumDenialsPerHour: Int64 = 10_000

    func rules() async throws -> SCAEligibilityRules {
        guard let row = try await database.sql.select().column("document").from("sca_eligibility").where("id", .equal, SQLBind(1)).first() else {
            return SCAEligibilityRules()
        }
        return try Self.documents.decode(try row.decode(column: "document", as: String.self))
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
            if let id = rule.applicationId, !TetheringID.isValid(id) {
                errors.append(.init(field: "minimumAppVersions[\(index)].applicationId", code: ProblemDetails.FieldError.invalidValue,
                                    detail: "a holder application id"))
            }
        }
        guard errors.isEmpty else { throw ProblemError.validation(errors) }
        let previous = try await self.rules()
        let document = String(decoding: try HoldfastJSON.encode(rules), as: UTF8.self)
        try await database.transaction { db in
            try await db.raw("DELETE FROM sca_eligibility WHERE id = 1").run()
            try await db.raw("INSERT INTO sca_eligibility (id, document, updated_at) VALUES (1, \(bind: document), \(bind: Timestamp.milliseconds(now)))").run()
        }
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
        let reference = "DEN-" + TetheringID.generate()
        let stamp = Timestamp.milliseconds(now)
        try await database.sql.raw("DELETE FROM sca_eligibility_denials WHERE created_at < \(bind: stamp - Int64(Self.denialRetention * 1000))").run()
        // The route is public: past the hourly cap a denial is answered but not stored, so that no flood of checks
        // can fill the database (the per-source limit bounds each source; this bounds them all).
        let lastHour = try await database.sql.raw("""
            SELECT COUNT(*) AS recorded FROM sca_eligibility_denials WHERE created_at >= \(bind: stamp - 3_600_000)
            """).first()?.decode(column: "recorded", as: Int64.self) ?? 0
        guard lastHour < maximumDenialsPerHour else {
            logger.warning("sca eligibility denial not recorded: hourly cap reached", metadata: ["reason": .string(reason.rawValue)])
            return SCAEligibilityCheckResponse(eligible: false, reason: reason, denialReference: reference)
        }
        try await database.sql.insert(into: "sca_eligibility_denials")
            .columns("reference", "application_id", "reason", "device_model", "app_version", "signals", "created_at")
            .values(SQLBind(reference), SQLBind(request.applicationId), SQLBind(reason.rawValue), SQLBind(request.device.model),
                    SQLBind(request.device.appVersion), SQLBind(String(decoding: try HoldfastJSON.encode(signals), as: UTF8.self)), SQLBind(stamp))
            .run()
        logger.info("sca eligibility denied", metadata: ["reference": .string(reference), "reason": .string(reason.rawValue)])
        return SCAEligibilityCheckResponse(eligible: false, reason: reason, denialReference: reference)
    }

    func denial(reference: String) async throws -> SCAEligibilityDenial {
        guard reference.utf8.count <= 64,
              let row = try await database.sql.select().column("*").from("sca_eligibility_denials").where("reference", .equal, reference).first() else {
            throw ProblemError(status: .notFound, code: .notFound, title: "Denial not found", detail: "no eligibility denial \(reference.prefix(64))")
        }
        return SCAEligibilityDenial(
            reference: reference, applicationId: try row.decode(column: "application_id", as: String.self),
            reason: SCAIneligibilityReason(rawValue: try row.decode(column: "reason", as: String.self)),
            device: SCAWallet.Device(model: try row.decode(column: "device_model", as: String?.self),
                                     appVersion: try row.decode(column: "app_version", as: String?.self)),
            signals: try HoldfastJSON.decode([String].self, from: Data(try row.decode(column: "signals", as: String.self).utf8)),
            createdAt: Timestamp.date(try row.decode(column: "created_at", as: Int64.self)))
    }

    /// The events the new rules make for activated wallets: `deviceEligibilityLost` when a wallet that was eligible
    /// under the previous rules is not under these, `appSunsetScheduled` when its version now has a sunset date it
    /// did not have (or a different one).
    private func announce(previous: SCAEligibilityRules, current: SCAEligibilityRules, now: Date) async throws {
        var after = ""
        while true {
            let rows = try await database.sql.raw("""
                SELECT id, application_id, device_model, app_version FROM sca_wallets \
                WHERE state IN ('active', 'locked') AND id > \(bind: after) ORDER BY id LIMIT \(bind: Self.walletPage)
                """).all()
            guard let last = rows.last else { return }
            after = try last.decode(column: "id", as: String.self)
            try await database.transaction { db in
                for row in rows {
                    let id = try row.decode(column: "id", as: String.self)
                    let application = try row.decode(column: "application_id", as: String.self)
                    let model = try row.decode(column: "device_model", as: String?.self)
                    let version = try row.decode(column: "app_version", as: String?.self)
                    func ineligibility(_ rules: SCAEligibilityRules) -> SCAIneligibilityReason? {
                        if let model, rules.blockedDeviceModels.contains(model) { return SCAIneligibilityReason.deviceModelBlocked }
                        if rules.unsupportedVersion(applicationId: application, appVersion: version, at: now) != nil {
                            return SCAIneligibilityReason.appVersionUnsupported
                        }
                        return nil
                    }
                    if let reason = ineligibility(current), ineligibility(previous) == nil {
                        try await SCAWalletService.appendEvent(walletId: id, type: .deviceEligibilityLost, data: ["reason": .string(reason.rawValue)],
                                                               now: now, on: db)
                    }
                    let sunset = current.scheduledSunset(applicationId: application, appVersion: version, at: now)
                    if let sunset, let date = sunset.sunsetAt,
                       previous.scheduledSunset(applicationId: application, appVersion: version, at: now)?.sunsetAt != date {
                        try await SCAWalletService.appendEvent(
                            walletId: id, type: .appSunsetScheduled,
                            data: ["minimumVersion": .string(sunset.version), "sunsetAt": .string(HoldfastJSON.formatDate(date))], now: now, on: db)
                    }
                }
            }
        }
    }
}
