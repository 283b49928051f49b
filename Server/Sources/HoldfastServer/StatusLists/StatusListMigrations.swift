/// Status list schema, versions 400–499 (`HoldfastMigrations`; docs/server-api.md "Credentials").
///
/// - `status_lists`: one row per list. `open` (1/0) says whether new indices are still drawn from it (a list is
///   counted, and closed at the fill limit, only when draws keep meeting taken indices); `version` grows with
///   every status change in it, in the same transaction, so that a cached token is known to be stale.
/// - `status_list_entries`: one row per handed-out index; the primary key makes an index impossible to hand out
///   twice, whichever node draws it.
/// - `status_list_tokens`: the last signed token of each list per format, shared by the nodes.
/// - `status_list_settings`: the one row of `ttl` and `exp` (absent: the defaults).
enum StatusListMigrations {
    static let migrations: [Migration] = [
        Migration(version: 400, name: "create status lists",
                  sqlite: statements(binary: "BLOB"), postgresql: statements(binary: "BYTEA")),
    ]

    private static func statements(binary: String) -> [String] {
        [
            """
            CREATE TABLE status_lists (
                id TEXT PRIMARY KEY,
                bits INTEGER NOT NULL CHECK (bits IN (1, 2, 4, 8)),
                size INTEGER NOT NULL,
                open INTEGER NOT NULL,
                version BIGINT NOT NULL,
                created_at BIGINT NOT NULL
            )
            """,
            """
            CREATE TABLE status_list_entries (
                list_id TEXT NOT NULL REFERENCES status_lists (id),
                idx INTEGER NOT NULL,
                status INTEGER NOT NULL,
                PRIMARY KEY (list_id, idx)
            )
            """,
            """
            CREATE TABLE status_list_tokens (
                list_id TEXT NOT NULL REFERENCES status_lists (id),
                format TEXT NOT NULL CHECK (format IN ('cwt', 'jwt')),
                version BIGINT NOT NULL,
                signed_at BIGINT NOT NULL,
                token \(binary) NOT NULL,
                PRIMARY KEY (list_id, format)
            )
            """,
            """
            CREATE TABLE status_list_settings (
                id INTEGER PRIMARY KEY CHECK (id = 1),
                ttl_seconds BIGINT NOT NULL,
                exp_seconds BIGINT NOT NULL
            )
            """,
        ]
    }
}
