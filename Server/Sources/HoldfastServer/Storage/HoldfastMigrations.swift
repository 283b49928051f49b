/// The server's schema: every capability's migrations, in one ordered list.
///
/// To add a capability's tables, define `static let migrations: [Migration]` in the capability's folder and
/// append it here. Each capability owns a block of 100 versions so that parallel work never collides:
///
/// | versions | capability |
/// |---|---|
/// | 1–99 | core: admin API keys, tenant keys, tenant settings |
/// | 100–199 | holder applications |
/// | 200–299 | instances |
/// | 300–399 | licenses, wallet attestation |
/// | 400–499 | status lists |
/// | 500–599 | issuance |
/// | 600–699 | verifier |
/// | 700–799 | SCA wallet |
public enum HoldfastMigrations {
    public static var all: [Migration] {
        AdminKeyMigrations.migrations
            + TenantKeyMigrations.migrations
            + TenantSettingsMigrations.migrations
            + HolderApplicationMigrations.migrations
            + InstanceMigrations.migrations
            + StatusListMigrations.migrations
            + IssuanceMigrations.migrations
            + PresentationMigrations.migrations
            + SCAMigrations.migrations
    }
}
