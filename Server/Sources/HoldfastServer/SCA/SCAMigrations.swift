import Foundation
import JOSE
import SQLKit

/// Version 700, the SCA wallet's back end (docs/server-api.md "SCA wallet (back end)"):
/// - `sca_wallets`: one row per wallet: its user, holder application, protection settings and PIN attempts left;
///   until activated the SHA-256 of its one-time activation code (cleared when used), afterwards the wallet key
///   (`InstancePublicKey.encoded`) and the device it was activated on. `state` is `pending`, `active`, `locked` or
///   `deleted` (kept, so that a deleted wallet's proofs are refused as such).
/// - `sca_policies`: the operation signing policies, one JSON document (row id 1).
/// - `sca_events`: what happened to each wallet, in order, for its device's event feed.
///
/// Version 701, device eligibility: `sca_eligibility`, the rules (one JSON document, row id 1), and
/// `sca_eligibility_denials`, each device found not eligible, under the reference it was given (kept 90 days).
///
/// Version 702, activation guessing (docs/server-api.md "SCA wallet (back end)"): `sca_wallets.activation_selector`, the public
/// first half of an activation code (the row a code is for, so that wrong codes count against it), and
/// `activation_failures`, the wrong codes given for it; `sca_activation_failures`, the wrong codes per hour over all
/// sources, one row per hour (once a tenant-wide budget, now only counted: docs/server-api.md "SCA wallet (back end)").
///
/// Version 703, the keys behind the customer's credentials (docs/DESIGN.md "The SCA wallet's PIN"):
/// `access_protection` may be `pinOrBiometric`; `pin_verifier` (SHA-256 of the device's PIN secret), `key_share` (the
/// tenant's half of the key that unseals the PIN key, released after a right PIN), `pin_key` and `biometry_key` (the
/// public keys that sign the `pin` and `biometry` proofs) and `proof_counter` (the last accepted proof's counter).
/// SQLite cannot change a CHECK constraint, so its table is made again and the rows copied.
///
/// Version 704, the key share sealed at rest (docs/security.md "What is not tested here"): `key_share_sealed`, the share sealed with the
/// master key (AES-256-GCM, the wallet id bound as associated data: `SCADeviceService.sealKeyShare`), as an offer's
/// claim values are; every share stored in clear in `key_share` is sealed into it and the clear one cleared, in the
/// migration's transaction. Version 705 drops `key_share`.
enum SCAMigrations {
    static let migrations: [Migration] = [
        Migration(version: 700, name: "create sca_wallets, sca_policies and sca_events",
                  sqlite: tables(serial: "INTEGER PRIMARY KEY AUTOINCREMENT"), postgresql: tables(serial: "BIGSERIAL PRIMARY KEY")),
        Migration(version: 701, name: "create sca_eligibility and sca_eligibility_denials", sql: eligibility),
        Migration(version: 702, name: "add activation selectors and failure counts", sql: activationFailures),
        Migration(version: 703, name: "add the credentials' keys, the PIN verifier and the proof counter",
                  sqlite: credentialKeysSQLite, postgresql: credentialKeysPostgreSQL),
        Migration(version: 704, name: "seal the key shares with the master key",
                  sqlite: ["ALTER TABLE sca_wallets ADD COLUMN key_share_sealed BLOB"],
                  postgresql: ["ALTER TABLE sca_wallets ADD COLUMN key_share_sealed BYTEA"], rows: sealKeyShares),
        Migration(version: 705, name: "drop the key shares kept in clear", sql: ["ALTER TABLE sca_wallets DROP COLUMN key_share"]),
    ]

    /// Version 704's rows: each share kept in clear (base64url, as enrolled) sealed into `key_share_sealed`, the
    /// clear one cleared. The master key is asked for only when there is a share to seal.
    private static func sealKeyShares(_ session: any SQLDatabase, _ keys: MigrationKeys) async throws {
        let rows = try await session.raw("SELECT id, key_share FROM sca_wallets WHERE key_share IS NOT NULL").all()
        guard !rows.isEmpty else { return }
        let masterKey = try keys.masterKey(for: 704)
        for row in rows {
            let id = try row.decode(column: "id", as: String.self)
            guard let share = Base64URL.decode(try row.decode(column: "key_share", as: String.self)) else {
                throw StorageError(code: StorageError.Code.corruptRow, message: "the key share of SCA wallet \(id) is not base64url")
            }
            let sealed = try SCADeviceService.sealKeyShare(share, walletId: id, masterKey: masterKey)
            try await session.raw("""
                UPDATE sca_wallets SET key_share_sealed = \(bind: Data(sealed)), key_share = NULL WHERE id = \(bind: id)
                """).run()
        }
    }

    private static let newColumns = ["pin_verifier TEXT", "key_share TEXT", "pin_key TEXT", "biometry_key TEXT",
                                     "proof_counter BIGINT NOT NULL DEFAULT 0"]

    private static let credentialKeysPostgreSQL = [
        "ALTER TABLE sca_wallets DROP CONSTRAINT IF EXISTS sca_wallets_access_protection_check",
        "ALTER TABLE sca_wallets ADD CONSTRAINT sca_wallets_access_protection_check CHECK (access_protection IN ('pin', 'biometric', 'pinOrBiometric', 'none'))",
    ] + newColumns.map { "ALTER TABLE sca_wallets ADD COLUMN \($0)" }

    private static let copiedColumns = """
        id, application_id, user_id, state, access_protection, max_pin_attempts, pin_attempts_left, activation_code_hash, \
        activation_expires_at, public_key, attestation_type, device_model, app_version, lock_reason, created_at, activated_at, \
        deleted_at, activation_selector, activation_failures
        """

    private static let credentialKeysSQLite = [
        """
        CREATE TABLE sca_wallets_703 (
            id TEXT PRIMARY KEY,
            application_id TEXT NOT NULL,
            user_id TEXT NOT NULL,
            state TEXT NOT NULL CHECK (state IN ('pending', 'active', 'locked', 'deleted')),
            access_protection TEXT NOT NULL CHECK (access_protection IN ('pin', 'biometric', 'pinOrBiometric', 'none')),
            max_pin_attempts BIGINT NOT NULL,
            pin_attempts_left BIGINT NOT NULL,
            activation_code_hash TEXT UNIQUE,
            activation_expires_at BIGINT NOT NULL,
            public_key TEXT,
            attestation_type TEXT,
            device_model TEXT,
            app_version TEXT,
            lock_reason TEXT,
            created_at BIGINT NOT NULL,
            activated_at BIGINT,
            deleted_at BIGINT,
            activation_selector TEXT,
            activation_failures BIGINT NOT NULL DEFAULT 0,
            \(newColumns.joined(separator: ",\n    "))
        )
        """,
        "INSERT INTO sca_wallets_703 (\(copiedColumns)) SELECT \(copiedColumns) FROM sca_wallets",
        "DROP TABLE sca_wallets",
        "ALTER TABLE sca_wallets_703 RENAME TO sca_wallets",
        "CREATE INDEX sca_wallets_user ON sca_wallets (user_id, id)",
        "CREATE INDEX sca_wallets_activation_selector ON sca_wallets (activation_selector)",
    ]

    private static let activationFailures = [
        "ALTER TABLE sca_wallets ADD COLUMN activation_selector TEXT",
        "ALTER TABLE sca_wallets ADD COLUMN activation_failures BIGINT NOT NULL DEFAULT 0",
        "CREATE INDEX sca_wallets_activation_selector ON sca_wallets (activation_selector)",
        """
        CREATE TABLE sca_activation_failures (
            hour BIGINT PRIMARY KEY,
            failures BIGINT NOT NULL
        )
        """,
    ]

    private static let eligibility = [
        """
        CREATE TABLE sca_eligibility (
            id BIGINT PRIMARY KEY CHECK (id = 1),
            document TEXT NOT NULL,
            updated_at BIGINT NOT NULL
        )
        """,
        """
        CREATE TABLE sca_eligibility_denials (
            reference TEXT PRIMARY KEY,
            application_id TEXT NOT NULL,
            reason TEXT NOT NULL,
            device_model TEXT,
            app_version TEXT,
            signals TEXT NOT NULL,
            created_at BIGINT NOT NULL
        )
        """,
        "CREATE INDEX sca_eligibility_denials_created ON sca_eligibility_denials (created_at)",
    ]

    private static func tables(serial: String) -> [String] {
        [
            """
            CREATE TABLE sca_wallets (
                id TEXT PRIMARY KEY,
                application_id TEXT NOT NULL,
                user_id TEXT NOT NULL,
                state TEXT NOT NULL CHECK (state IN ('pending', 'active', 'locked', 'deleted')),
                access_protection TEXT NOT NULL CHECK (access_protection IN ('pin', 'biometric', 'none')),
                max_pin_attempts BIGINT NOT NULL,
                pin_attempts_left BIGINT NOT NULL,
                activation_code_hash TEXT UNIQUE,
                activation_expires_at BIGINT NOT NULL,
                public_key TEXT,
                attestation_type TEXT,
                device_model TEXT,
                app_version TEXT,
                lock_reason TEXT,
                created_at BIGINT NOT NULL,
                activated_at BIGINT,
                deleted_at BIGINT
            )
            """,
            "CREATE INDEX sca_wallets_user ON sca_wallets (user_id, id)",
            """
            CREATE TABLE sca_policies (
                id BIGINT PRIMARY KEY CHECK (id = 1),
                document TEXT NOT NULL,
                updated_at BIGINT NOT NULL
            )
            """,
            """
            CREATE TABLE sca_events (
                sequence \(serial),
                wallet_id TEXT NOT NULL,
                type TEXT NOT NULL,
                data TEXT NOT NULL,
                created_at BIGINT NOT NULL
            )
            """,
            "CREATE INDEX sca_events_wallet ON sca_events (wallet_id, sequence)",
        ]
    }
}
