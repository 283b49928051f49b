/// Instances schema, versions 200–299 (docs/server-api.md "Registration wire format", step 5).
///
/// `public_key` is the wire string of the instance key (`InstancePublicKey.encoded`) and `key_thumbprint` its
/// RFC 7638 thumbprint, the `cnf.jkt` of valid license tokens: a rotation changes both, which is what makes the
/// old key's tokens fail at once. `app_attest_public_key` / `app_attest_counter` keep the App Attest key and its
/// counter for renewal assertions. `revoked_at` is set by deletion (of the instance or of its application);
/// revoked rows are kept so that their tokens are answered `INSTANCE_REVOKED`, not "unknown".
enum InstanceMigrations {
    static let migrations: [Migration] = [
        Migration(version: 200, name: "create holder_instances", sql: [
            """
            CREATE TABLE holder_instances (
                id TEXT PRIMARY KEY,
                application_id TEXT NOT NULL,
                platform TEXT NOT NULL CHECK (platform IN ('ios', 'android')),
                public_key TEXT NOT NULL,
                key_thumbprint TEXT NOT NULL,
                status TEXT NOT NULL CHECK (status IN ('registered', 'pending', 'rejected')),
                app_attestation_type TEXT NOT NULL CHECK (app_attestation_type IN ('none', 'app_attestation', 'key_attestation')),
                app_attest_key_id TEXT,
                app_attest_public_key TEXT,
                app_attest_counter BIGINT,
                development_mode BIGINT NOT NULL DEFAULT 0,
                registered_at BIGINT NOT NULL,
                last_attested_at BIGINT,
                license_expires_at BIGINT,
                key_rotated_at BIGINT,
                revoked_at BIGINT,
                device_details TEXT NOT NULL,
                sdk_details TEXT NOT NULL,
                external_reference_id TEXT
            )
            """,
            "CREATE INDEX holder_instances_page ON holder_instances (application_id, registered_at, id)",
        ]),
        // `attestation`: the `InstanceAttestation` JSON of the last platform evidence (docs/server-api.md "Android Key
        // Attestation policy"); NULL for instances registered before it was recorded, and for assertions.
        Migration(version: 201, name: "holder_instances.attestation", sql: [
            "ALTER TABLE holder_instances ADD COLUMN attestation TEXT",
        ]),
    ]
}
