import HoldfastAdmin
import HoldfastProtocol
import Foundation
import Logging
import SQLKit

/// Admin API keys (DESIGN.md §4 "Auth"): create, list, revoke, authenticate. Used by the HTTP API and by
/// `holdfast admin keys …` alike, so both enforce the same rules.
public struct AdminKeyService: Sendable {
    public let database: HoldfastDatabase
    let logger: Logger

    /// A name is 1–100 characters, no control characters.
    public static let maximumNameLength = 100
    public static let defaultPageSize = 100
    public static let maximumPageSize = 1000
    /// `last_used_at` is written at most this often per key (best effort, not on every request).
    static let lastUsedResolutionMilliseconds: Int64 = 60_000
    public static let bootstrapKeyName = "bootstrap"

    public init(database: HoldfastDatabase, logger: Logger) {
        self.database = database
        self.logger = logger
    }

    /// Creates a key; the returned value is the only place the full key appears.
    public func create(name: String, scope: AdminKey.Scope = .admin, now: Date) async throws -> CreatedAdminKey {
        try Self.validate(name: name)
        return try await insert(name: name, bootstrap: false, scope: scope, now: now, on: database.sql)
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
        var query = database.sql.select().column("*").from("admin_api_keys")
        if let cursor { query = query.where("id", .greaterThan, cursor) }
        let rows = try await query.orderBy("id").limit(limit + 1).all()
        let keys = try rows.prefix(limit).map(Self.adminKey)
        return AdminKeyPage(keys: keys, nextCursor: rows.count > limit ? keys.last?.id : nil)
    }

    /// One key by id.
    public func get(id: String) async throws -> AdminKey {
        guard AdminKeyToken.isValidID(id),
              let row = try await database.sql.select().column("*").from("admin_api_keys").where("id", .equal, id).first()
        else { throw AdminKeyError.notFound(id: id) }
        return try Self.adminKey(row)
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
        let now = Timestamp.milliseconds(now)
        let lockActive = database.dialect == .postgresql ? " FOR UPDATE" : ""
        return try await database.transaction { session in
            guard let row = try await session.select().column("*").from("admin_api_keys")
                .where("id", .equal, id).first() else { throw AdminKeyError.notFound(id: id) }
            let key = try Self.adminKey(row)
            guard key.isActive else { return key }
            if let actingKeyID {
                let active = try await session.raw(
                    "SELECT id, scope FROM admin_api_keys WHERE revoked_at IS NULL\(unsafeRaw: lockActive)").all()
                    .filter { try $0.decode(column: "scope", as: String.self) == AdminKey.Scope.admin.rawValue }
                    .map { try $0.decode(column: "id", as: String.self) }
                guard active.contains(actingKeyID) else { throw AdminKeyError.unauthenticated(credentialsPresented: true) }
                guard key.scope != .admin || active.contains(where: { $0 != id }) else { throw AdminKeyError.lastAdminKey }
            }
            try await session.update("admin_api_keys").set("revoked_at", to: now)
                .where("id", .equal, id).where("revoked_at", .is, SQLLiteral.null).run()
            var revoked = key
            revoked.revokedAt = Timestamp.date(now)
            return revoked
        }
    }

    /// The active key a bearer token names, or `AdminKeyError.unauthenticated`. Records `last_used_at`
    /// (best effort, at most once a minute per key).
    public func authenticate(token: String, now: Date) async throws -> AdminKey {
        guard let parsed = AdminKeyToken(token) else { throw AdminKeyError.unauthenticated(credentialsPresented: true) }
        guard let row = try await database.sql.select().column("*").from("admin_api_keys")
            .where("id", .equal, parsed.id).first() else {
            throw AdminKeyError.unauthenticated(credentialsPresented: true)
        }
        let storedHash = try row.decode(column: "secret_hash", as: String.self)
        guard AdminKeyToken.constantTimeEquals(storedHash, parsed.secretHash) else {
            throw AdminKeyError.unauthenticated(credentialsPresented: true)
        }
        var key = try Self.adminKey(row)
        guard key.isActive else { throw AdminKeyError.unauthenticated(credentialsPresented: true) }
        let now = Timestamp.milliseconds(now)
        let lastUsed = try row.decodeNil(column: "last_used_at") ? nil : try row.decode(column: "last_used_at", as: Int64.self)
        if lastUsed.map({ now - $0 >= Self.lastUsedResolutionMilliseconds }) ?? true {
            do {
                try await database.sql.update("admin_api_keys").set("last_used_at", to: now)
                    .where("id", .equal, key.id).run()
                key.lastUsedAt = Timestamp.date(now)
            } catch {
                logger.warning("could not record admin key use", metadata: ["admin_key_id": .string(key.id)])
            }
        }
        return key
    }

    /// On a database with no admin key at all, creates the bootstrap key and returns it; otherwise nil.
    /// The `bootstrap` column is UNIQUE, so of two nodes racing here only one insert succeeds; the other
    /// sees the constraint fail, finds the winner's row and returns nil.
    func createBootstrapKeyIfEmpty(on session: any SQLDatabase, now: Date) async throws -> CreatedAdminKey? {
        let count = try await session.select().column(SQLFunction("COUNT", args: SQLLiteral.all), as: "n")
            .from("admin_api_keys").first()?.decode(column: "n", as: Int64.self) ?? 0
        guard count == 0 else { return nil }
        do {
            return try await insert(name: Self.bootstrapKeyName, bootstrap: true, scope: .admin, now: now, on: session)
        } catch {
            let existing = try await session.select().column("id").from("admin_api_keys")
                .where("bootstrap", .equal, SQLBind(1)).first()
            if existing != nil { return nil }
            throw error
        }
    }

    private func insert(name: String, bootstrap: Bool, scope: AdminKey.Scope, now: Date, on db: any SQLDatabase) async throws -> CreatedAdminKey {
        let token = AdminKeyToken.generate()
        let now = Timestamp.milliseconds(now)
        try await db.insert(into: "admin_api_keys")
            .columns("id", "name", "secret_hash", "created_at", "last_used_at", "revoked_at", "bootstrap", "scope")
            .values(SQLBind(token.id), SQLBind(name), SQLBind(token.secretHash), SQLBind(now),
                    SQLLiteral.null, SQLLiteral.null, bootstrap ? SQLBind(1) : SQLLiteral.null, SQLBind(scope.rawValue))
            .run()
        let key = AdminKey(id: token.id, name: name, createdAt: Timestamp.date(now), lastUsedAt: nil, revokedAt: nil,
                           bootstrap: bootstrap, scope: scope)
        logger.info("admin key created", metadata: ["admin_key_id": .string(token.id), "bootstrap": .stringConvertible(bootstrap),
                                                    "scope": .string(scope.rawValue)])
        return CreatedAdminKey(key: token.text, adminKey: key)
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

    static func adminKey(_ row: any SQLRow) throws -> AdminKey {
        func optionalTime(_ column: String) throws -> Date? {
            try row.decodeNil(column: column) ? nil : Timestamp.date(try row.decode(column: column, as: Int64.self))
        }
        return AdminKey(
            id: try row.decode(column: "id", as: String.self),
            name: try row.decode(column: "name", as: String.self),
            createdAt: Timestamp.date(try row.decode(column: "created_at", as: Int64.self)),
            lastUsedAt: try optionalTime("last_used_at"),
            revokedAt: try optionalTime("revoked_at"),
            bootstrap: !(try row.decodeNil(column: "bootstrap")),
            scope: AdminKey.Scope(rawValue: try row.decode(column: "scope", as: String.self)) ?? .verifier)
    }
}
