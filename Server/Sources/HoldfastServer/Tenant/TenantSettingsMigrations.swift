/// Version 90 (core), `tenant_settings`: what the running server records about the tenant for the tools that work
/// on its database (docs/command-line.md "The `holdfast` command") — today `public_url`, the public URL it serves under.
enum TenantSettingsMigrations {
    static let migrations: [Migration] = [
        Migration(version: 90, name: "create tenant_settings", sql: [
            """
            CREATE TABLE tenant_settings (
                name TEXT PRIMARY KEY,
                value TEXT NOT NULL,
                updated_at BIGINT NOT NULL
            )
            """,
        ]),
    ]
}
