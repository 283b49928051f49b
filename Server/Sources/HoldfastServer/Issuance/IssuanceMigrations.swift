/// Issuance schema, versions 500–599 (`HoldfastMigrations`).
///
/// `issuer_certificates`: the tenant's IACA, document signer and status list signer certificates, their private keys
/// encrypted with the master key (AES-256-GCM, the id bound as associated data). `status` as in `tenant_keys`:
/// exactly one `active` per `kind` (a partial unique index), `published` ones still listed and trusted.
///
/// Version 501, OpenID4VCI issuance (docs/server-api.md "Credentials"):
/// - `credential_configurations`: each configuration's document (`CredentialConfiguration`, defaults filled in).
/// - `credential_offers`: one row per offer. Secrets are kept only as SHA-256 hashes: the pre-authorized code
///   (`code_hash`), the transaction code (`tx_code_hash`, with the wrong attempts in `tx_attempts`) and the access
///   token (`access_token_hash`, bound to the DPoP key `access_jkt`). `claims` is the offer's claim values, sealed
///   with the master key, and is cleared when the credential is issued. `redeemed_at` and `issued_at` are set once,
///   by conditional updates, which is what makes a code and a token single use on every node.
/// - `issued_credentials`: what was issued, to whom, and where its status is published — never claim values.
/// - An index on `holder_instances (key_thumbprint)`: the token endpoint finds the instance a wallet attestation
///   was made for by its key.
///
/// Version 502, `trusted_wallet_providers`: other wallet providers an admin trusts, by the `iss` of their client
/// attestations, with their keys (`TrustedWalletProvider`).
enum IssuanceMigrations {
    static let migrations: [Migration] = [
        Migration(version: 500, name: "create issuer_certificates",
                  sqlite: [certificates(binary: "BLOB"), oneActive],
                  postgresql: [certificates(binary: "BYTEA"), oneActive]),
        Migration(version: 501, name: "create credential configurations, offers and issued credentials",
                  sqlite: issuance(binary: "BLOB"), postgresql: issuance(binary: "BYTEA")),
        Migration(version: 502, name: "create trusted_wallet_providers", sql: [
            """
            CREATE TABLE trusted_wallet_providers (
                id TEXT PRIMARY KEY,
                issuer TEXT NOT NULL UNIQUE,
                document TEXT NOT NULL,
                created_at BIGINT NOT NULL
            )
            """,
        ]),
        Migration(version: 503, name: "record wallet notifications on issued credentials", sql: [
            """
            ALTER TABLE issued_credentials ADD COLUMN wallet_event TEXT
                CHECK (wallet_event IN ('credential_accepted', 'credential_failure', 'credential_deleted'))
            """,
            "ALTER TABLE issued_credentials ADD COLUMN wallet_event_at BIGINT",
            "ALTER TABLE issued_credentials ADD COLUMN wallet_event_description TEXT",
        ]),
    ]

    private static func issuance(binary: String) -> [String] {
        [
            """
            CREATE TABLE credential_configurations (
                id TEXT PRIMARY KEY,
                doc_type TEXT NOT NULL,
                document TEXT NOT NULL,
                created_at BIGINT NOT NULL
            )
            """,
            """
            CREATE TABLE credential_offers (
                id TEXT PRIMARY KEY,
                configuration_id TEXT NOT NULL,
                claims \(binary),
                code_hash TEXT NOT NULL UNIQUE,
                tx_code_hash TEXT,
                tx_attempts INTEGER NOT NULL DEFAULT 0,
                created_at BIGINT NOT NULL,
                expires_at BIGINT NOT NULL,
                redeemed_at BIGINT,
                instance_id TEXT,
                client_id TEXT,
                access_token_hash TEXT UNIQUE,
                access_jkt TEXT,
                access_expires_at BIGINT,
                issued_at BIGINT
            )
            """,
            """
            CREATE TABLE issued_credentials (
                id TEXT PRIMARY KEY,
                configuration_id TEXT NOT NULL,
                doc_type TEXT NOT NULL,
                instance_id TEXT,
                offer_id TEXT NOT NULL,
                status TEXT NOT NULL CHECK (status IN ('valid', 'suspended', 'revoked')),
                status_list_id TEXT,
                status_idx INTEGER,
                issued_at BIGINT NOT NULL,
                valid_until BIGINT NOT NULL
            )
            """,
            "CREATE INDEX issued_credentials_page ON issued_credentials (issued_at, id)",
            "CREATE INDEX holder_instances_key_thumbprint ON holder_instances (key_thumbprint)",
        ]
    }

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
