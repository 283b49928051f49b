/// Version 600, the verifier of online presentation (docs/server-api.md "Verifier"):
/// - `verifier_certificates`: the verifier CA and its request-signing certificate, their private keys sealed with
///   the master key (AES-256-GCM, the id bound as associated data); exactly one `active` per `kind`. The signer's
///   SAN names `host`, the host of the public URL; a start with another host makes a new signer.
/// - `presentation_trusted_issuers`: IACAs an admin adds, trusted beside the tenant's own when presentations are
///   verified.
/// - Version 601, `presentation_sessions`.
/// - Version 602, `presentation_dc_api_requests`: the Digital Credentials API requests of a `dc-api` session.
enum PresentationMigrations {
    static let migrations: [Migration] = [
        Migration(version: 600, name: "create verifier_certificates and presentation_trusted_issuers",
                  sqlite: tables(binary: "BLOB"), postgresql: tables(binary: "BYTEA")),
        Migration(version: 601, name: "create presentation_sessions",
                  sqlite: [sessions(binary: "BLOB")], postgresql: [sessions(binary: "BYTEA")]),
        Migration(version: 602, name: "create presentation_dc_api_requests",
                  sqlite: [dcAPIRequests(binary: "BLOB")], postgresql: [dcAPIRequests(binary: "BYTEA")]),
    ]

    /// One row per request of a `dc-api` session (docs/server-api.md "Digital Credentials API"), one per protocol: its
    /// nonce (OpenID4VP 1.0 Appendix A) or the nonce of its EncryptionInfo (ISO/IEC TS 18013-7 Annex C), the `kid`
    /// of its response encryption key, that key sealed with the master key (bound to the session and protocol), and
    /// for `org-iso-mdoc` the `encryptionInfo` string exactly as sent (the Annex C SessionTranscript hashes it).
    private static func dcAPIRequests(binary: String) -> String {
        """
        CREATE TABLE presentation_dc_api_requests (
            session_id TEXT NOT NULL REFERENCES presentation_sessions (id) ON DELETE CASCADE,
            protocol TEXT NOT NULL,
            position INTEGER NOT NULL,
            nonce TEXT NOT NULL,
            kid TEXT NOT NULL,
            encryption_key \(binary) NOT NULL,
            encryption_info TEXT,
            PRIMARY KEY (session_id, protocol)
        )
        """
    }

    /// One row per session: what it asks (`request`, the session's settings as JSON), its nonce and state, its
    /// response encryption key sealed with the master key, and once answered (`answered_at`, set by one conditional
    /// update, which makes a session single use on every node) its outcome (`status`, `result` JSON).
    private static func sessions(binary: String) -> String {
        """
        CREATE TABLE presentation_sessions (
            id TEXT PRIMARY KEY,
            request TEXT NOT NULL,
            nonce TEXT NOT NULL,
            state TEXT NOT NULL UNIQUE,
            encryption_key \(binary) NOT NULL,
            created_by TEXT NOT NULL,
            created_at BIGINT NOT NULL,
            expires_at BIGINT NOT NULL,
            status TEXT NOT NULL CHECK (status IN ('pending', 'verified', 'failed', 'declined')),
            response_code TEXT,
            result TEXT,
            answered_at BIGINT
        )
        """
    }

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
