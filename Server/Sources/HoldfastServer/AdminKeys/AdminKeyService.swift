import HoldfastAdmin
import HoldfastProtocol
import Foundation
import Logging

/// Admin API keys (DESIGN.md §4 "Auth"): create, list, revoke, authenticate. Used by the HTTP API and by
/// `holdfast admin keys …` alike, so both enforce the same rules.
public struct AdminKeyService: Sendable {
    let store: AdminKeyStore
    let logger: Logger
    /// Draws the keys' ids and secrets.
    let random: any RandomSource

    /// A name is 1–100 characters, no control characters.
    public static let maximumNameLength = 100
    public static let defaultPageSize = 100
    public static let maximumPageSize = 1000
    /// `last_used_at` is written at most this often per key (best effort, not on every request).
    static let lastUseResolution: TimeInterval = 60
    public static let bootstrapKeyName = "bootstrap"

    public init(database: HoldfastDatabase, logger: Logger, random: any RandomSource) {
        self.store = AdminKeyStore(database: database)
        self.logger = logger
        self.random = random
    }

    /// Creates a key; the returned value is the only place the full key appears.
    public func create(name: String, scope: AdminKey.Scope = .admin, now: Date) async throws -> CreatedAdminKey {
        try Self.validate(name: name)
        let (key, created) = try await insert(name: name, bootstrap: false, scope: scope, now: now) { key, hash in
            try await store.insert(key, secretHash: hash)
        }
        return CreatedAdminKey(key: created, adminKey: key)
    }

    /// Keys ordered by id, `limit` at most, after `cursor` (an id from `nextCursor`).
    public func list(limit: Int = defaultPageSize, after cursor: String? = nil) async throws -> AdminKeyPage {
        guard (1...Self.maximumPageSize).contains(limit) else {
            throw ProblemError.invalidField("limit", code: ProblemDetails.FieldError.outOfRange,
                                            detail: "must be from 1 to \(Self.maximumPageSize)")
        }
        if let cursor, !AdminKeyToken.isValidID(cursor) {
            throw ProblemError.invalidField("cursor", code: ProblemDetails.FieldError.invalidValue, detail: "not a cursor from nextCursor")
        }
        let found = try await store.keys(after: cursor, limit: limit + 1)
        let keys = Array(found.prefix(limit))
        return AdminKeyPage(keys: keys, nextCursor: found.count > limit ? keys.last?.id : nil)
    }

    /// One key by id.
    public func get(id: String) async throws -> AdminKey {
        guard AdminKeyToken.isValidID(id), let key = try await store.key(id: id) else { throw AdminKeyError.notFound(id: id) }
        return key
    }

    /// Revokes `id` (idempotent: an already revoked key is returned as it is). `actingKeyID` is the key making
    /// the request: it must still be active when the revocation is written (two keys revoking each other at once:
    /// the second finds its own key revoked, `UNAUTHENTICATED`), and it may not revoke itself while it is the last
    /// active key of scope `admin` (`LAST_ADMIN_KEY`), so the API never locks itself out (a `verifier` key cannot
    /// manage keys, so it does not count). Both are decided in one transaction
    /// holding the active keys: SQLite's `BEGIN IMMEDIATE` write lock, PostgreSQL's `SELECT … FOR UPDATE` (a
    /// concurrent revocation waits, then sees the committed state). The CLI passes nil: an operator on the box can
    /// always create another key.
    public func revoke(id: String, actingKeyID: String?, now: Date) async throws -> AdminKey {
        guard AdminKeyToken.isValidID(id) else { throw AdminKeyError.notFound(id: id) }
        return try await store.transaction { transaction in
            guard let key = try await transaction.key(id: id) else { throw AdminKeyError.notFound(id: id) }
            guard key.isActive else { return key }
            if let actingKeyID {
                let active = try await transaction.activeKeyIDs(scope: .admin)
                guard active.contains(actingKeyID) else { throw AdminKeyError.unauthenticated(credentialsPresented: true) }
                guard key.scope != .admin || active.contains(where: { $0 != id }) else { throw AdminKeyError.lastAdminKey }
            }
            var revoked = key
            revoked.revokedAt = try await transaction.revoke(id: id, at: now)
            return revoked
        }
    }

    /// The active key a bearer token names, or `AdminKeyError.unauthenticated`. Records `last_used_at`
    /// (best effort, at most once a minute per key).
    public func authenticate(token: String, now: Date) async throws -> AdminKey {
        guard let parsed = AdminKeyToken(token) else { throw AdminKeyError.unauthenticated(credentialsPresented: true) }
        guard let stored = try await store.credential(id: parsed.id) else {
            throw AdminKeyError.unauthenticated(credentialsPresented: true)
        }
        guard AdminKeyToken.constantTimeEquals(stored.secretHash, parsed.secretHash) else {
            throw AdminKeyError.unauthenticated(credentialsPresented: true)
        }
        var key = stored.key
        guard key.isActive else { throw AdminKeyError.unauthenticated(credentialsPresented: true) }
        if key.lastUsedAt.map({ now.timeIntervalSince($0) >= Self.lastUseResolution }) ?? true {
            do {
                key.lastUsedAt = try await store.recordUse(id: key.id, at: now)
            } catch {
                logger.warning("could not record admin key use", metadata: ["admin_key_id": .string(key.id)])
            }
        }
        return key
    }

    /// On a database with no admin key at all, creates the bootstrap key and returns it; otherwise nil.
    /// The `bootstrap` column is UNIQUE, so of two nodes racing here only one insert succeeds; the other
    /// sees the constraint fail, finds the winner's row and returns nil.
    func createBootstrapKeyIfEmpty(on session: AdminKeyStore.Session, now: Date) async throws -> CreatedAdminKey? {
        guard try await session.count() == 0 else { return nil }
        do {
            let (key, created) = try await insert(name: Self.bootstrapKeyName, bootstrap: true, scope: .admin, now: now) { key, hash in
                try await session.insert(key, secretHash: hash)
            }
            return CreatedAdminKey(key: created, adminKey: key)
        } catch {
            if try await session.hasBootstrapKey() { return nil }
            throw error
        }
    }

    /// A new key drawn from `random`, stored by `store`: the key as stored and its full text.
    private func insert(name: String, bootstrap: Bool, scope: AdminKey.Scope, now: Date,
                        store: (AdminKey, String) async throws -> AdminKey) async throws -> (AdminKey, String) {
        let token = AdminKeyToken.generate(random: random)
        let key = try await store(AdminKey(id: token.id, name: name, createdAt: now, lastUsedAt: nil, revokedAt: nil,
                                           bootstrap: bootstrap, scope: scope), token.secretHash)
        logger.info("admin key created", metadata: ["admin_key_id": .string(token.id), "bootstrap": .stringConvertible(bootstrap),
                                                    "scope": .string(scope.rawValue)])
        return (key, token.text)
    }

    /// The rule `openapi.json` states (`minLength`, `maxLength`, `pattern`), counted in code points as JSON
    /// Schema counts them.
    static func validate(name: String) throws {
        let length = name.unicodeScalars.count
        guard length >= 1 else {
            throw ProblemError.invalidField("name", code: ProblemDetails.FieldError.required, detail: "must not be empty")
        }
        guard length <= maximumNameLength else {
            throw ProblemError.invalidField("name", code: ProblemDetails.FieldError.tooLong, detail: "at most \(maximumNameLength) characters")
        }
        guard !name.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else {
            throw ProblemError.invalidField("name", code: ProblemDetails.FieldError.invalidValue, detail: "must not contain control characters")
        }
    }
}
