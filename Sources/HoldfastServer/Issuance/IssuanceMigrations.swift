/// Issuance schema, versions 500–599 (`HoldfastMigrations`).
///
/// `issuer_certificates`: the tenant's IACA, document signer and status list signer certificates, their private keys
/// encrypted with the master key (AES-256-GCM, the id bound as associated data). `status` as in `tenant_keys`:
/// exactly one `active` per `kind` (a partial unique index), `published` ones still listed and trusted.
enum IssuanceMigrations {
    static let migrations: [Migration] = [
        Migration(version: 500, name: "create issuer_certificates",
                  sqlite: [certificates(binary: "BLOB"), oneActive],
                  postgresql: [certificates(binary: "BYTEA"), oneActive]),
    ]

    private static func certificates(binary: String) -> String {
        """
        CREATE TABLE issuer_certificates (
            id TEXT PRIMARY KEY,
            kind TEXT NOT NULL CHECK (kind IN ('iaca', 'document-signer', 'status-list-signer')),
            status TEXT NOT NULL CHECK (status IN ('active', 'published', 'retired')),
            certificate_der \(binary) NOT NULL,
            encrypted_private_key \(binary) NOT NULL,
            issuer_id TEXT,
            not_before BIGINT NOT NULL,
            not_after BIGINT NOT NULL,
            created_at BIGINT NOT NULL
        )
        """
    }

    private static let oneActive =
        "CREATE UNIQUE INDEX issuer_certificates_one_active ON issuer_certificates (kind) WHERE status = 'active'"
}
