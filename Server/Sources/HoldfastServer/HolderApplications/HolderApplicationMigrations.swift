/// Holder applications schema, versions 100–199 (docs/server-api.md "API", "holder applications").
///
/// `document` is the application's JSON as the API shows it (`HolderApplication`, without `id`); `name` is kept
/// in its own column so that its uniqueness is a constraint, not a race.
enum HolderApplicationMigrations {
    static let migrations: [Migration] = [
        Migration(version: 100, name: "create holder_applications", sql: [
            """
            CREATE TABLE holder_applications (
                id TEXT PRIMARY KEY,
                name TEXT NOT NULL UNIQUE,
                platform TEXT NOT NULL CHECK (platform IN ('ios', 'android')),
                document TEXT NOT NULL,
                created_at BIGINT NOT NULL,
                updated_at BIGINT NOT NULL
            )
            """,
            "CREATE INDEX holder_applications_page ON holder_applications (created_at, id)",
        ]),
    ]
}
