import Foundation
import JOSE
import SQLKit

/// SQL for `tenant_keys` (`TenantKeyMigrations`): the tenant's signing keys, their private parts sealed with the
/// master key. Used at start-up, under the start-up lock, on that lock's session (`db`).
struct TenantKeyStore: Sendable {
    let db: any SQLDatabase

    /// A key as stored: its private part still sealed.
    struct StoredKey: Sendable {
        let kid: String
        let purpose: String
        let algorithm: String
        /// nil for a status this version does not know.
        let status: TenantKey.Status?
        /// nil when the stored JWK is unreadable.
        let publicJWK: JWK?
        let sealedPrivateKey: [UInt8]
        let createdAt: Date
    }

    /// The active and published keys of `purpose`, oldest first.
    func keys(purpose: String) async throws -> [StoredKey] {
        let rows = try await db.select().column("*").from("tenant_keys")
            .where("purpose", .equal, purpose)
            .where("status", .in, [TenantKey.Status.active.rawValue, TenantKey.Status.published.rawValue])
            .orderBy("created_at").all()
        return try rows.map { row in
            StoredKey(kid: try row.decode(column: "kid", as: String.self),
                      purpose: try row.decode(column: "purpose", as: String.self),
                      algorithm: try row.decode(column: "algorithm", as: String.self),
                      status: TenantKey.Status(rawValue: try row.decode(column: "status", as: String.self)),
                      publicJWK: try? JSONDecoder().decode(JWK.self, from: Data(try row.decode(column: "public_jwk", as: String.self).utf8)),
                      sealedPrivateKey: Array(try row.decode(column: "encrypted_private_key", as: Data.self)),
                      createdAt: Timestamp.date(try row.decode(column: "created_at", as: Int64.self)))
        }
    }

    /// Stores a new active key of `purpose`. The partial unique index allows one active key per purpose, so a
    /// second node racing here fails its insert instead of adding another active key.
    func insertActive(kid: String, purpose: String, algorithm: String, publicJWK: JWK, sealedPrivateKey: [UInt8],
                      now: Date) async throws {
        let jwkText = String(decoding: try JSONEncoder().encode(publicJWK), as: UTF8.self)
        try await db.insert(into: "tenant_keys")
            .columns("kid", "purpose", "algorithm", "status", "public_jwk", "encrypted_private_key", "created_at", "retired_at")
            .values(SQLBind(kid), SQLBind(purpose), SQLBind(algorithm), SQLBind(TenantKey.Status.active.rawValue),
                    SQLBind(jwkText), SQLBind(Data(sealedPrivateKey)), SQLBind(Timestamp.milliseconds(now)), SQLLiteral.null)
            .run()
    }
}
