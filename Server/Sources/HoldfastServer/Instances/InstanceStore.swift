import Foundation
import HoldfastAdmin
import HoldfastProtocol
import SQLKit

/// SQL for `holder_instances`. Updates that race (counter, rotation) are conditional on the value read, so that
/// two concurrent requests cannot both win.
struct InstanceStore: Sendable, PagedStore {
    let database: HoldfastDatabase

    func insert(_ instance: HolderInstance) async throws {
        func time(_ date: Date?) -> any SQLExpression {
            date.map { SQLBind(Timestamp.milliseconds($0)) } ?? SQLLiteral.null
        }
        func text(_ value: String?) -> any SQLExpression { value.map { SQLBind($0) } ?? SQLLiteral.null }
        let device = String(decoding: try HoldfastJSON.encode(instance.deviceDetails), as: UTF8.self)
        let sdk = String(decoding: try HoldfastJSON.encode(instance.sdkDetails), as: UTF8.self)
        let values: [any SQLExpression] = [
            SQLBind(instance.id), SQLBind(instance.applicationId), SQLBind(instance.platform.rawValue),
            SQLBind(instance.publicKey), SQLBind(instance.keyThumbprint), SQLBind(instance.status.rawValue),
            SQLBind(instance.appAttestationType.rawValue), text(instance.appAttestKeyId),
            text(instance.appAttestPublicKey), instance.appAttestCounter.map { SQLBind($0) } ?? SQLLiteral.null,
            SQLBind(Int64(instance.developmentMode ? 1 : 0)), time(instance.registeredAt),
            time(instance.lastAttestedAt), time(instance.licenseExpiresAt), time(instance.keyRotatedAt),
            time(instance.revokedAt), SQLBind(device), SQLBind(sdk), text(instance.externalReferenceId),
            text(try Self.attestationText(instance.attestation)),
        ]
        // Fixed SQL text rather than the insert builder, whose serialisation (20 quoted identifiers) cost more
        // than the statement itself.
        try await database.sql.raw("""
            INSERT INTO holder_instances (id, application_id, platform, public_key, key_thumbprint, status, \
            app_attestation_type, app_attest_key_id, app_attest_public_key, app_attest_counter, development_mode, \
            registered_at, last_attested_at, license_expires_at, key_rotated_at, revoked_at, device_details, \
            sdk_details, external_reference_id, attestation) VALUES (\(SQLList(values)))
            """).run()
    }

    /// The instance with this id (revoked ones included), or nil.
    func get(id: String) async throws -> HolderInstance? {
        guard ResourceID.isValid(id) else { return nil }
        // Fixed SQL text (no builder): it is serialised for nothing and prepared once per connection.
        return try await database.sql.raw("SELECT * FROM holder_instances WHERE id = \(bind: id)").first()
            .map(Self.instance)
    }

    /// The instance with this id and its application (nil when the application was deleted), in one statement:
    /// every instance call needs both.
    func getWithApplication(id: String) async throws -> (instance: HolderInstance, application: HolderApplication?)? {
        guard ResourceID.isValid(id) else { return nil }
        let row = try await database.sql.raw("""
            SELECT holder_instances.*, holder_applications.document AS application_document FROM holder_instances \
            LEFT JOIN holder_applications ON holder_applications.id = holder_instances.application_id \
            WHERE holder_instances.id = \(bind: id)
            """).first()
        guard let row else { return nil }
        let instance = try Self.instance(row)
        let application = try row.decodeNil(column: "application_document") ? nil
            : try HolderApplicationStore.application(id: instance.applicationId,
                                                     document: row.decode(column: "application_document", as: String.self))
        return (instance, application)
    }

    /// The instances whose current key has this RFC 7638 thumbprint (revoked ones included), each with its
    /// application: how an issuer finds the instance a wallet attestation's `cnf.jwk` belongs to.
    func withKey(thumbprint: String) async throws -> [(instance: HolderInstance, application: HolderApplication?)] {
        guard thumbprint.utf8.count <= 128 else { return [] }
        let rows = try await database.sql.raw("""
            SELECT holder_instances.*, holder_applications.document AS application_document FROM holder_instances \
            LEFT JOIN holder_applications ON holder_applications.id = holder_instances.application_id \
            WHERE holder_instances.key_thumbprint = \(bind: thumbprint)
            """).all()
        return try rows.map { row in
            let instance = try Self.instance(row)
            let application = try row.decodeNil(column: "application_document") ? nil
                : try HolderApplicationStore.application(id: instance.applicationId,
                                                         document: row.decode(column: "application_document", as: String.self))
            return (instance, application)
        }
    }

    /// A live (not revoked) instance of `applicationId`, or `INSTANCE_NOT_FOUND`.
    func live(applicationId: String, id: String) async throws -> HolderInstance {
        guard let instance = try await get(id: id), instance.applicationId == applicationId, instance.revokedAt == nil else {
            throw TetheringError.instanceNotFound(id)
        }
        return instance
    }

    /// Live instances of an application by `(registered_at, id)`, `limit` at most, after `cursor`.
    func list(applicationId: String, limit: Int, cursor: KeysetCursor?) async throws -> InstancePage {
        let query = database.sql.select().column("*").from("holder_instances")
            .where("application_id", .equal, applicationId).where("revoked_at", .is, SQLLiteral.null)
        let (rows, next) = try await Self.page(query, timeColumn: "registered_at", after: cursor, limit: limit)
        let instances = try rows.map(Self.instance)
        return InstancePage(data: instances.map(\.listItem), nextCursor: next)
    }

    /// Marks a live instance revoked; false when it was not live.
    func revoke(id: String, now: Date) async throws -> Bool {
        let rows = try await database.sql.update("holder_instances").set("revoked_at", to: Timestamp.milliseconds(now))
            .where("id", .equal, id).where("revoked_at", .is, SQLLiteral.null).returning("id").all()
        return !rows.isEmpty
    }

    /// The statements on `holder_instances` that another store's transaction may make (`HolderApplicationStore.Transaction`).
    struct Transaction: Sendable {
        let db: any SQLDatabase

        /// Revokes every live instance of the application (its deletion); the number revoked.
        func revokeAll(applicationId: String, now: Date) async throws -> Int {
            let count = try await db.select().column(SQLFunction("COUNT", args: SQLLiteral.all), as: "n")
                .from("holder_instances").where("application_id", .equal, applicationId).where("revoked_at", .is, SQLLiteral.null)
                .first()?.decode(column: "n", as: Int64.self) ?? 0
            try await db.update("holder_instances").set("revoked_at", to: Timestamp.milliseconds(now))
                .where("application_id", .equal, applicationId).where("revoked_at", .is, SQLLiteral.null).run()
            return Int(count)
        }
    }

    /// Sets the status of a live instance; false when it was not live or not `from`.
    func setStatus(id: String, from: InstanceStatus, to status: InstanceStatus) async throws -> Bool {
        let rows = try await database.sql.update("holder_instances").set("status", to: status.rawValue)
            .where("id", .equal, id).where("status", .equal, from.rawValue).where("revoked_at", .is, SQLLiteral.null)
            .returning("id").all()
        return !rows.isEmpty
    }

    /// Records a renewal: the new expiry, and (after fresh evidence) `lastAttestedAt` and the App Attest counter,
    /// only if the counter is still the one verified against. False when another request changed it first.
    func recordLicense(id: String, expiresAt: Date, attestedAt: Date?, counter: (old: Int64, new: Int64)?,
                       attestation: InstanceAttestation? = nil) async throws -> Bool {
        var update: SQLQueryString = "UPDATE holder_instances SET license_expires_at = \(bind: Timestamp.milliseconds(expiresAt))"
        if let attestedAt { update += ", last_attested_at = \(bind: Timestamp.milliseconds(attestedAt))" }
        if let text = try Self.attestationText(attestation) { update += ", attestation = \(bind: text)" }
        if let counter { update += ", app_attest_counter = \(bind: counter.new)" }
        update += " WHERE id = \(bind: id) AND revoked_at IS NULL"
        if let counter { update += " AND app_attest_counter = \(bind: counter.old)" }
        update += " RETURNING id"
        return !(try await database.sql.raw(update).all().isEmpty)
    }

    /// Replaces the key of a live instance whose key is still `oldThumbprint`.
    func rotate(id: String, oldThumbprint: String, to evidence: VerifiedKeyEvidence, publicKey: String, thumbprint: String,
                licenseExpiresAt: Date, now: Date) async throws -> Bool {
        let (now, licenseExpiresAt) = (Timestamp.milliseconds(now), Timestamp.milliseconds(licenseExpiresAt))
        var update = database.sql.update("holder_instances")
            .set("public_key", to: publicKey).set("key_thumbprint", to: thumbprint)
            .set("key_rotated_at", to: now).set("license_expires_at", to: licenseExpiresAt)
            .set("app_attestation_type", to: evidence.type.rawValue)
        if evidence.type != .none { update = update.set("last_attested_at", to: now) }
        update = update.set("attestation", to: try Self.attestationText(evidence.attestation).map { SQLBind($0) } ?? SQLLiteral.null)
        if let appAttest = evidence.appAttest {
            update = update.set("app_attest_key_id", to: appAttest.keyId).set("app_attest_public_key", to: appAttest.publicKey)
                .set("app_attest_counter", to: appAttest.counter)
        }
        let rows = try await update.where("id", .equal, id).where("key_thumbprint", .equal, oldThumbprint)
            .where("revoked_at", .is, SQLLiteral.null).returning("id").all()
        return !rows.isEmpty
    }

    /// The stored JSON of an instance's attestation record; nil (SQL NULL) when nothing was attested.
    static func attestationText(_ attestation: InstanceAttestation?) throws -> String? {
        guard let attestation, !attestation.isEmpty else { return nil }
        return String(decoding: try HoldfastJSON.encode(attestation), as: UTF8.self)
    }

    // MARK: rows

    /// Device and SDK details repeat across a fleet (one model, one OS version, one SDK release): decoded once per text.
    private static let deviceDetailsCache = DecodedJSONCache<DeviceDetails>(capacity: 1024)
    private static let sdkDetailsCache = DecodedJSONCache<SDKDetails>(capacity: 256)
    private static let attestationCache = DecodedJSONCache<InstanceAttestation>(capacity: 256)

    static func instance(_ row: any SQLRow) throws -> HolderInstance {
        func optionalTime(_ column: String) throws -> Date? {
            try row.decodeNil(column: column) ? nil : Timestamp.date(try row.decode(column: column, as: Int64.self))
        }
        func optionalText(_ column: String) throws -> String? {
            try row.decodeNil(column: column) ? nil : try row.decode(column: column, as: String.self)
        }
        func value<T: RawRepresentable>(_ column: String, as type: T.Type) throws -> T where T.RawValue == String {
            let text = try row.decode(column: column, as: String.self)
            guard let value = T(rawValue: text) else {
                throw StorageError(code: StorageError.Code.corruptRow, message: "holder_instances.\(column) has the unknown value \(text)")
            }
            return value
        }
        return HolderInstance(
            id: try row.decode(column: "id", as: String.self),
            applicationId: try row.decode(column: "application_id", as: String.self),
            platform: try value("platform", as: HolderPlatform.self),
            publicKey: try row.decode(column: "public_key", as: String.self),
            keyThumbprint: try row.decode(column: "key_thumbprint", as: String.self),
            status: try value("status", as: InstanceStatus.self),
            appAttestationType: try value("app_attestation_type", as: AppAttestationType.self),
            appAttestKeyId: try optionalText("app_attest_key_id"),
            appAttestPublicKey: try optionalText("app_attest_public_key"),
            appAttestCounter: try row.decodeNil(column: "app_attest_counter") ? nil
                : try row.decode(column: "app_attest_counter", as: Int64.self),
            developmentMode: try row.decode(column: "development_mode", as: Int64.self) != 0,
            registeredAt: Timestamp.date(try row.decode(column: "registered_at", as: Int64.self)),
            lastAttestedAt: try optionalTime("last_attested_at"),
            licenseExpiresAt: try optionalTime("license_expires_at"),
            keyRotatedAt: try optionalTime("key_rotated_at"),
            revokedAt: try optionalTime("revoked_at"),
            deviceDetails: try deviceDetailsCache.decode(try row.decode(column: "device_details", as: String.self)),
            sdkDetails: try sdkDetailsCache.decode(try row.decode(column: "sdk_details", as: String.self)),
            externalReferenceId: try optionalText("external_reference_id"),
            attestation: try optionalText("attestation").map { try attestationCache.decode($0) })
    }
}
