import Crypto
import Foundation
import JOSE
import Logging

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
            throw KeyError.noActiveTenantKey(active.count)
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

    /// Loads the signing keys from `store`, creating the first one (created at `now`) when there is none. Run under
    /// the start-up lock. Returns whether a key was created.
    static func loadOrCreate(from store: TenantKeyStore, masterKey: MasterKey, now: Date,
                             logger: Logger) async throws -> (TenantKeyring, created: Bool) {
        var stored = try await store.keys(purpose: signingPurpose)
        var created = false
        if stored.isEmpty {
            try await insertNewKey(into: store, masterKey: masterKey, now: now)
            stored = try await store.keys(purpose: signingPurpose)
            created = true
        }
        let keys = try stored.map { key throws -> TenantKey in try decrypt(key, masterKey: masterKey) }
        let keyring = try TenantKeyring(keys: keys)
        if created {
            logger.info("tenant signing key created", metadata: ["kid": .string(keyring.activeKey.kid)])
        }
        return (keyring, created)
    }

    /// A fresh P-256 key as the active signing key; when another node created one first (the store's insert fails
    /// and a key exists), theirs is used.
    private static func insertNewKey(into store: TenantKeyStore, masterKey: MasterKey, now: Date) async throws {
        let privateKey = P256.Signing.PrivateKey()
        let kid = try JWK(publicKey: privateKey.publicKey).thumbprint()
        let jwk = JWK(publicKey: privateKey.publicKey, kid: kid, use: .signature, alg: algorithm)
        let sealed = try masterKey.seal(Array(privateKey.rawRepresentation), context: associatedData(kid))
        do {
            try await store.insertActive(kid: kid, purpose: signingPurpose, algorithm: algorithm, publicJWK: jwk,
                                         sealedPrivateKey: sealed, now: now)
        } catch {
            if try await !store.keys(purpose: signingPurpose).isEmpty { return }
            throw error
        }
    }

    private static func decrypt(_ stored: TenantKeyStore.StoredKey, masterKey: MasterKey) throws -> TenantKey {
        let kid = stored.kid
        let plaintext: [UInt8]
        do {
            plaintext = try masterKey.open(stored.sealedPrivateKey, context: associatedData(kid))
        } catch {
            throw KeyError.masterKeyMismatch("the master key (\(masterKey.origin)) cannot decrypt tenant key \(kid): it is not the "
                + "key this database was created with; set HOLDFAST_MASTER_KEY or the key file to the original key")
        }
        guard let privateKey = try? P256.Signing.PrivateKey(rawRepresentation: plaintext), let jwk = stored.publicJWK,
              let published = try? jwk.p256PublicKey(),
              published.x963Representation == privateKey.publicKey.x963Representation,
              let status = stored.status else {
            throw KeyError.tenantKeyCorrupt(kid)
        }
        return TenantKey(kid: kid, purpose: stored.purpose, algorithm: stored.algorithm, status: status,
                         createdAt: stored.createdAt, publicJWK: jwk, privateKey: privateKey)
    }

    private static func associatedData(_ kid: String) -> String { "holdfast tenant_keys \(kid)" }
}
