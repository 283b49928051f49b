/// Version 600, the verifier of online presentation (README "Verifier"):
/// - `verifier_certificates`: the verifier CA and its request-signing certificate, their private keys sealed with
///   the master key (AES-256-GCM, the id bound as associated data); exactly one `active` per `kind`. The signer's
///   SAN names `host`, the host of the public URL; a start with another host makes a new signer.
/// - `presentation_trusted_issuers`: IACAs an admin adds, trusted beside the tenant's own when presentations are
///   verified.
enum PresentationMigrations {
    static let migrations: [Migration] = [
        Migration(version: 600, name: "create verifier_certificates and presentation_trusted_issuers",
                  sqlite: tables(binary: "BLOB"), postgresql: tables(binary: "BYTEA")),
    ]

    private static func tables(binary: String) -> [String] {
        [
            """
            CREATE TABLE verifier_certificates (
                id TEXT PRIMARY KEY,
                kind TEXT NOT NULL CHECK (kind IN ('ca', 'request-signer')),
                status TEXT NOT NULL CHECK (status IN ('active', 'retired')),
                host TEXT,
                certificate_der \(binary) NOT NULL,
                encrypted_private_key \(binary) NOT NULL,
                created_at BIGINT NOT NULL
            )
            """,
            "CREATE UNIQUE INDEX verifier_certificates_one_active ON verifier_certificates (kind) WHERE status = 'active'",
            """
            CREATE TABLE presentation_trusted_issuers (
                id TEXT PRIMARY KEY,
                certificate_der \(binary) NOT NULL,
                created_at BIGINT NOT NULL
            )
            """,
        ]
    }
}
