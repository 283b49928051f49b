import Foundation
import HoldfastAdmin
import HoldfastProtocol
import SQLKit

/// SQL for what the bank's back end sets for all its wallets (docs/server-api.md "SCA wallet (back end)"): the operation signing policies
/// (`sca_policies`) and the device eligibility rules (`sca_eligibility`), each one JSON document in row 1 replaced
/// whole, and the eligibility denials recorded under their references (`sca_eligibility_denials`).
struct SCARulesStore: Sendable {
    let database: HoldfastDatabase

    /// Every proof verification and eligibility check reads its row (another node may have replaced it) but decodes a
    /// document only once.
    private static let policyDocuments = DecodedJSONCache<[SCAPolicy]>(capacity: 4)
    private static let eligibilityDocuments = DecodedJSONCache<SCAEligibilityRules>(capacity: 4)

    /// The signing policies, or nil before any were stored.
    func policies() async throws -> [SCAPolicy]? {
        try await database.sql.select().column("document").from("sca_policies").where("id", .equal, SQLBind(1)).first()
            .map { try Self.policyDocuments.decode(try $0.decode(column: "document", as: String.self)) }
    }

    func replacePolicies(_ policies: [SCAPolicy], at date: Date) async throws {
        let document = String(decoding: try HoldfastJSON.encode(policies), as: UTF8.self)
        let stamp = Timestamp.milliseconds(date)
        try await database.transaction { db in
            try await db.raw("DELETE FROM sca_policies WHERE id = 1").run()
            try await db.raw("INSERT INTO sca_policies (id, document, updated_at) VALUES (1, \(bind: document), \(bind: stamp))").run()
        }
    }

    /// The eligibility rules, or nil before any were stored.
    func eligibilityRules() async throws -> SCAEligibilityRules? {
        try await database.sql.select().column("document").from("sca_eligibility").where("id", .equal, SQLBind(1)).first()
            .map { try Self.eligibilityDocuments.decode(try $0.decode(column: "document", as: String.self)) }
    }

    func replaceEligibility(_ rules: SCAEligibilityRules, at date: Date) async throws {
        let document = String(decoding: try HoldfastJSON.encode(rules), as: UTF8.self)
        let stamp = Timestamp.milliseconds(date)
        try await database.transaction { db in
            try await db.raw("DELETE FROM sca_eligibility WHERE id = 1").run()
            try await db.raw("INSERT INTO sca_eligibility (id, document, updated_at) VALUES (1, \(bind: document), \(bind: stamp))").run()
        }
    }

    /// Drops the denials recorded before `date`.
    func deleteDenials(before date: Date) async throws {
        let stamp = Timestamp.milliseconds(date)
        try await database.sql.raw("DELETE FROM sca_eligibility_denials WHERE created_at < \(bind: stamp)").run()
    }

    /// How many denials were recorded since `date`.
    func denialCount(since date: Date) async throws -> Int64 {
        let stamp = Timestamp.milliseconds(date)
        return try await database.sql.raw("""
            SELECT COUNT(*) AS recorded FROM sca_eligibility_denials WHERE created_at >= \(bind: stamp)
            """).first()?.decode(column: "recorded", as: Int64.self) ?? 0
    }

    /// Records `denial` as made at its `createdAt`.
    func insertDenial(_ denial: SCAEligibilityDenial) async throws {
        let stamp = Timestamp.milliseconds(denial.createdAt)
        try await database.sql.insert(into: "sca_eligibility_denials")
            .columns("reference", "application_id", "reason", "device_model", "app_version", "signals", "created_at")
            .values(SQLBind(denial.reference), SQLBind(denial.applicationId), SQLBind(denial.reason.rawValue), SQLBind(denial.device.model),
                    SQLBind(denial.device.appVersion), SQLBind(String(decoding: try HoldfastJSON.encode(denial.signals), as: UTF8.self)),
                    SQLBind(stamp))
            .run()
    }

    /// The denial recorded under `reference`, or nil.
    func denial(reference: String) async throws -> SCAEligibilityDenial? {
        guard reference.utf8.count <= 64,
              let row = try await database.sql.select().column("*").from("sca_eligibility_denials")
                .where("reference", .equal, reference).first() else { return nil }
        return SCAEligibilityDenial(
            reference: reference, applicationId: try row.decode(column: "application_id", as: String.self),
            reason: SCAIneligibilityReason(rawValue: try row.decode(column: "reason", as: String.self)),
            device: SCAWallet.Device(model: try row.decode(column: "device_model", as: String?.self),
                                     appVersion: try row.decode(column: "app_version", as: String?.self)),
            signals: try HoldfastJSON.decode([String].self, from: Data(try row.decode(column: "signals", as: String.self).utf8)),
            createdAt: Timestamp.date(try row.decode(column: "created_at", as: Int64.self)))
    }
}
