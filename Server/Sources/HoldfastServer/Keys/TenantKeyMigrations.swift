/// Core schema, versions 50–99: the tenant's keys, private parts encrypted with the master key.
///
/// `status` is `active` (signs; exactly one per `purpose`, enforced by a partial unique index), `published`
/// (no longer signs, still in the JWKS so tokens it signed verify) or `retired` (neither).
enum TenantKeyMigrations {
    static let migrations: [Migration] = [
        Migration(version: 50, name: "create tenant_keys",
                  sqlite: [createTable(binary: "BLOB"), activeIndex],
                  postgresql: [createTable(binary: "BYTEA"), activeIndex]),
    ]

    private static func createTable(binary: String) -> String {
        """
        CREATE TABLE tenant_keys (
            kid TEXT PRIMARY KEY,
            purpose TEXT NOT NULL,
            algorithm TEXT NOT NULL,
            status TEXT NOT NULL CHECK (status IN ('active', 'published', 'retired')),
            public_jwk TEXT NOT NULL,
            encrypted_private_key \(binary) NOT NULL,
            created_at BIGINT NOT NULL,
            retired_at BIGINT
        )
        """
    }

    private static let activeIndex =
        "CREATE UNIQUE INDEX tenant_keys_one_active ON tenant_keys (purpose) WHERE status = 'active'"
}
