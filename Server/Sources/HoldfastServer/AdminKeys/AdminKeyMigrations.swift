/// Core schema, versions 1–49: admin API keys (DESIGN.md §4 "Auth").
enum AdminKeyMigrations {
    static let migrations: [Migration] = [
        Migration(version: 1, name: "create admin_api_keys", sql: [
            """
            CREATE TABLE admin_api_keys (
                id TEXT PRIMARY KEY,
                name TEXT NOT NULL,
                secret_hash TEXT NOT NULL,
                created_at BIGINT NOT NULL,
                last_used_at BIGINT,
                revoked_at BIGINT,
                bootstrap BIGINT UNIQUE CHECK (bootstrap = 1)
            )
            """,
        ]),
        // A key's scope (docs/server-api.md "API"): every key made before is a full admin key.
        Migration(version: 2, name: "admin_api_keys scope", sql: [
            "ALTER TABLE admin_api_keys ADD COLUMN scope TEXT NOT NULL DEFAULT 'admin'",
        ]),
    ]
}
