import Foundation
import SQLKit

/// SQL for `tenant_settings` (`TenantSettingsMigrations`): what the running server records about the tenant for the
/// tools that work on its database, one value per name.
struct TenantSettingsStore: Sendable {
    let database: HoldfastDatabase

    /// The settings this version records.
    enum Setting: String, Sendable {
        /// The public URL the server serves under (`TenantPublicURL`).
        case publicURL = "public_url"
    }

    /// Records `value` for `setting` at `now`, replacing what was recorded (the last write wins).
    func record(_ setting: Setting, _ value: String, now: Date) async throws {
        try await database.sql.raw("""
            INSERT INTO tenant_settings (name, value, updated_at) \
            VALUES (\(bind: setting.rawValue), \(bind: value), \(bind: Timestamp.milliseconds(now))) \
            ON CONFLICT (name) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at
            """).run()
    }

    /// The value recorded for `setting`, if any.
    func value(_ setting: Setting) async throws -> String? {
        try await database.sql.select().column("value").from("tenant_settings").where("name", .equal, setting.rawValue)
            .first()?.decode(column: "value", as: String.self)
    }
}
