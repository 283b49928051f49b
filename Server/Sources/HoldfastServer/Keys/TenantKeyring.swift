import Crypto
import Foundation
import JOSE
import Logging
import SQLKit

/// The tenant's signing keys, loaded at start (DESIGN.md §4 "Keys"): an ES256 key is created on first start,
/// stored in `tenant_keys` encrypted with the master key (AES-256-GCM, the kid bound as associated data), and
/// published at `/.well-known/jwks.json`. Several keys may be published while exactly one is active, which is
/// what rotation needs: a new key becomes active, the old one stays `published` until what it signed expires.
public struct TenantKeyring: Sendable {
    public static let signingPurpose = "signing"
    public static let algorithm = "ES256"

    /// Every non-retired key, the active one first.
    public let keys: [TenantKey]

    init(keys: [TenantKey]) throws(KeyError) {
        let active = keys.filter { $0.status == .active }
        guard active.count == 1 else {
            throw KeyError(code: KeyError.Code.noActiveTenantKey,
                           message: "tenant_keys has \(active.count) active signing keys; exactly one is required")
        }
        self.keys = active + keys.filter { $0.status == .published }
    }

    /// The key that signs new tokens.
    public var activeKey: TenantKey { keys[0] }

    /// A signer with the active key.
    public var signer: TenantSigner { TenantSigner(activeKey) }

    /// The public JWK Set (RFC 7517 §5): every active or published key, public parts only.
    public var jwks: JWKSet { JWKSet(keys: keys.map(\.publicJWK)) }

    /// The published key with this `kid`, to verify what the tenant signed.
    public func key(withID kid: String) -> TenantKey? { keys.first { $0.kid == kid } }

    /// Loads the signing keys, creating the first one (created at `now`) when there is none. Run under the start-up
    /// lock. Returns whether a key was created.
    static func loadOrCreate(on session: any SQLDatabase, masterKey: MasterKey, now: Date,
                             logger: Logger) async throws -> (TenantKeyring, created: Bool) {
        var rows = try await selectKeys(session)
        var created = false
        if rows.isEmpty {
            try await insertNewKey(on: session, masterKey: masterKey, now: now)
            rows = try await selectKeys(session)
            created = true
        }
        let keys = try rows.map { row throws -> TenantKey in try decrypt(row, masterKey: masterKey) }
        let keyring = try TenantKeyring(keys: keys)
        if created {
            logger.info("tenant signing key created", metadata: ["kid": .string(keyring.activeKey.kid)])
        }
        return (keyring, created)
    }

    private static func selectKeys(_ db: any SQLDatabase) async throws -> [any SQLRow] {
        try await db.select().column("*").from("tenant_keys")
            .where("purpose", .equal, signingPurpose)
            .where("status", .in, [TenantKey.Status.active.rawValue, TenantKey.Status.published.rawValue])
            .orderBy("created_at").all()
    }

    /// A fresh P-256 key as the active signing key. The partial unique index allows one active key per
    /// purpose, so a second node racing here fails its insert instead of adding another active key.
    private static func insertNewKey(on db: any SQLDatabase, masterKey: MasterKey, now: Date) async throws {
        let privateKey = P256.Signing.PrivateKey()
        let kid = try JWK(publicKey: privateKey.publicKey).thumbprint()
        let jwk = JWK(publicKey: privateKey.publicKey, kid: kid, use: .signature, alg: algorithm)
        let jwkText = String(decoding: try JSONEncoder().encode(jwk), as: UTF8.self)
        let sealed = try masterKey.seal(Array(privateKey.rawRepresentation), context: associatedData(kid))
        do {
            try await db.insert(into: "tenant_keys")
                .columns("kid", "purpose", "algorithm", "status", "public_jwk", "encrypted_private_key", "created_at",
                         "retired_at")
                .values(SQLBind(kid), SQLBind(signingPurpose), SQLBind(algorithm),
                        SQLBind(TenantKey.Status.active.rawValue), SQLBind(jwkText), SQLBind(Data(sealed)),
                        SQLBind(Timestamp.milliseconds(now)), SQLLiteral.null)
                .run()
        } catch {
            // Another node created the active key first: use theirs.
            if try await !selectKeys(db).isEmpty { return }
            throw error
        }
    }

    private static func decrypt(_ row: any SQLRow, masterKey: MasterKey) throws -> TenantKey {
        let kid = try row.decode(column: "kid", as: String.self)
        let sealed = try row.decode(column: "encrypted_private_key", as: Data.self)
        let plaintext: [UInt8]
        do {
            plaintext = try masterKey.open(Array(sealed), context: associatedData(kid))
        } catch {
            throw KeyError(code: KeyError.Code.masterKeyMismatch,
                           message: "the master key (\(masterKey.origin)) cannot decrypt tenant key \(kid): it is not the "
                               + "key this database was created with; set HOLDFAST_MASTER_KEY or the key file to the original key")
        }
        guard let privateKey = try? P256.Signing.PrivateKey(rawRepresentation: plaintext),
              let jwk = try? JSONDecoder().decode(JWK.self, from: Data(try row.decode(column: "public_jwk", as: String.self).utf8)),
              let published = try? jwk.p256PublicKey(),
              published.x963Representation == privateKey.publicKey.x963Representation,
              let status = TenantKey.Status(rawValue: try row.decode(column: "status", as: String.self)) else {
            throw KeyError(code: KeyError.Code.tenantKeyCorrupt, message: "tenant key \(kid) is damaged")
        }
        return TenantKey(kid: kid, purpose: try row.decode(column: "purpose", as: String.self),
                         algorithm: try row.decode(column: "algorithm", as: String.self), status: status,
                         createdAt: Timestamp.date(try row.decode(column: "created_at", as: Int64.self)),
                         publicJWK: jwk, privateKey: privateKey)
    }

    private static func associatedData(_ kid: String) -> String { "holdfast tenant_keys \(kid)" }
}
