import Foundation
import HoldfastAdmin
import SQLKit

/// SQL for `admin_api_keys` (DESIGN.md §4 "Auth"): each key's id, name, SHA-256 of its secret, scope and times. A
/// revocation is decided in one `transaction`, whose `Transaction` holds the active keys (PostgreSQL `FOR UPDATE`;
/// SQLite's `BEGIN IMMEDIATE` already serialises writers); the bootstrap key is made on the start-up lock's session
/// (`Session`).
struct AdminKeyStore: TransactionalStore {
    let database: HoldfastDatabase

    /// A key with the hash its presented secret is compared with.
    struct Credential: Sendable {
        let key: AdminKey
        let secretHash: String
    }

    /// Stores a new key (its `createdAt` as stored is returned in it: whole milliseconds).
    func insert(_ key: AdminKey, secretHash: String) async throws -> AdminKey {
        try await Session(db: database.sql).insert(key, secretHash: secretHash)
    }

    /// Keys ordered by id after `cursor`, at most `limit`.
    func keys(after cursor: String?, limit: Int) async throws -> [AdminKey] {
        var query = database.sql.select().column("*").from("admin_api_keys")
        if let cursor { query = query.where("id", .greaterThan, cursor) }
        return try await query.orderBy("id").limit(limit).all().map(Self.adminKey)
    }

    /// The key with this id, or nil.
    func key(id: String) async throws -> AdminKey? {
        try await database.sql.select().column("*").from("admin_api_keys").where("id", .equal, id).first().map(Self.adminKey)
    }

    /// The key with this id and its secret's hash, or nil.
    func credential(id: String) async throws -> Credential? {
        guard let row = try await database.sql.select().column("*").from("admin_api_keys").where("id", .equal, id).first()
        else { return nil }
        return Credential(key: try Self.adminKey(row), secretHash: try row.decode(column: "secret_hash", as: String.self))
    }

    /// Records that the key was used at `date`; returns the time as stored.
    func recordUse(id: String, at date: Date) async throws -> Date {
        let stamp = Timestamp.milliseconds(date)
        try await database.sql.update("admin_api_keys").set("last_used_at", to: stamp).where("id", .equal, id).run()
        return Timestamp.date(stamp)
    }

    // MARK: transactions

    /// The statements of a revocation, on one transaction's connection.
    struct Transaction: StoreTransaction {
        private let db: any SQLDatabase
        /// What holds the rows a read decides on: PostgreSQL's `FOR UPDATE`, nothing on SQLite.
        private let rowLock: String

        init(session: HoldfastDatabase.Session, dialect: HoldfastDatabase.Dialect) {
            db = session
            rowLock = dialect == .postgresql ? " FOR UPDATE" : ""
        }

        func key(id: String) async throws -> AdminKey? {
            try await db.select().column("*").from("admin_api_keys").where("id", .equal, id).first().map(AdminKeyStore.adminKey)
        }

        /// The ids of the active keys of `scope`, every active key's row held until the transaction ends.
        func activeKeyIDs(scope: AdminKey.Scope) async throws -> [String] {
            try await db.raw("SELECT id, scope FROM admin_api_keys WHERE revoked_at IS NULL\(unsafeRaw: rowLock)").all()
                .filter { try $0.decode(column: "scope", as: String.self) == scope.rawValue }
                .map { try $0.decode(column: "id", as: String.self) }
        }

        /// Revokes the key unless it is revoked already; returns the time as stored.
        func revoke(id: String, at date: Date) async throws -> Date {
            let stamp = Timestamp.milliseconds(date)
            try await db.update("admin_api_keys").set("revoked_at", to: stamp)
                .where("id", .equal, id).where("revoked_at", .is, SQLLiteral.null).run()
            return Timestamp.date(stamp)
        }
    }

    /// The statements of the bootstrap key on the start-up lock's session (`HoldfastDatabase.withStartupLock`).
    struct Session: Sendable {
        fileprivate let db: any SQLDatabase

        init(_ session: HoldfastDatabase.Session) {
            db = session
        }

        fileprivate init(db: any SQLDatabase) {
            self.db = db
        }

        /// How many keys there are, revoked ones included.
        func count() async throws -> Int64 {
            try await db.select().column(SQLFunction("COUNT", args: SQLLiteral.all), as: "n")
                .from("admin_api_keys").first()?.decode(column: "n", as: Int64.self) ?? 0
        }

        /// Whether the bootstrap key exists (its `bootstrap` column is UNIQUE).
        func hasBootstrapKey() async throws -> Bool {
            try await db.select().column("id").from("admin_api_keys").where("bootstrap", .equal, SQLBind(1)).first() != nil
        }

        /// Stores a new key; returns it with its `createdAt` as stored.
        func insert(_ key: AdminKey, secretHash: String) async throws -> AdminKey {
            let created = Timestamp.milliseconds(key.createdAt)
            try await db.insert(into: "admin_api_keys")
                .columns("id", "name", "secret_hash", "created_at", "last_used_at", "revoked_at", "bootstrap", "scope")
                .values(SQLBind(key.id), SQLBind(key.name), SQLBind(secretHash), SQLBind(created),
                        SQLLiteral.null, SQLLiteral.null, key.bootstrap ? SQLBind(1) : SQLLiteral.null, SQLBind(key.scope.rawValue))
                .run()
            var stored = key
            stored.createdAt = Timestamp.date(created)
            return stored
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
