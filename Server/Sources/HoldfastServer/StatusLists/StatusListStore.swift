import Foundation
import HoldfastAdmin
import SQLKit
import StatusList

/// SQL for the token status lists (docs/server-api.md "Credentials"): `status_lists` (one row a list: its size, whether it
/// still hands out indices, its version), `status_list_entries` (the handed-out indices and their status),
/// `status_list_settings` (row 1) and `status_list_tokens` (the signed token per list and format, shared by every
/// node). Statements that belong to an issuance's or a status change's transaction are its `Transaction`'s.
struct StatusListStore: TransactionalStore {
    let database: HoldfastDatabase

    /// A list as its token is made from it.
    struct ListRow: Sendable {
        let bits: Int
        let size: Int
        let version: Int64
    }

    /// A signed token as stored.
    struct StoredToken: Sendable {
        let version: Int64
        /// When it was signed, in whole seconds (a token's `iat`), stored to the millisecond.
        let signedAt: Date
        let bytes: [UInt8]
    }

    // MARK: transactions

    /// The statements of an allocation or a status change, on one transaction's connection (`transaction`; an
    /// issuance's or a status change's is `IssuanceStore.Transaction.statusLists`).
    struct Transaction: StoreTransaction {
        let db: any SQLDatabase
        /// PostgreSQL: opening a list takes an advisory lock (`lockForOpening`).
        let takesAdvisoryLocks: Bool

        init(session: HoldfastDatabase.Session, dialect: HoldfastDatabase.Dialect) {
            db = session
            takesAdvisoryLocks = dialect == .postgresql
        }

        /// Takes `index` of `listID` with status 0 (valid); false when it was taken already (by this or another node).
        func insertEntry(listID: String, index: Int) async throws -> Bool {
            !(try await db.insert(into: "status_list_entries")
                .columns("list_id", "idx", "status")
                .values(SQLBind(listID), SQLBind(index), SQLBind(0))
                .ignoringConflicts()
                .returning("idx").all()).isEmpty
        }

        /// How many indices of `listID` are handed out.
        func entryCount(listID: String) async throws -> Int64 {
            try await db.select().column(SQLFunction("COUNT", args: SQLLiteral.all), as: "n")
                .from("status_list_entries").where("list_id", .equal, listID).first()?.decode(column: "n", as: Int64.self) ?? 0
        }

        /// The list hands out no more indices.
        func close(listID: String) async throws {
            try await db.update("status_lists").set("open", to: 0).where("id", .equal, listID).run()
        }

        /// The oldest list that still hands out indices, or nil.
        func oldestOpenList() async throws -> String? {
            try await db.select().column("id").from("status_lists").where("open", .equal, 1)
                .orderBy("created_at").orderBy("id").limit(1).first()?.decode(column: "id", as: String.self)
        }

        /// On PostgreSQL, the transaction-scoped advisory lock `key`, held until the transaction ends (SQLite's
        /// `BEGIN IMMEDIATE` already serialises writers); false on SQLite, where nothing was taken.
        func lockForOpening(key: Int64) async throws -> Bool {
            guard takesAdvisoryLocks else { return false }
            try await db.raw("SELECT pg_advisory_xact_lock(\(bind: key))").run()
            return true
        }

        /// A new open list of `size` entries of `bits` bits, at version 0.
        func insertList(id: String, bits: Int, size: Int, createdAt: Date) async throws {
            try await db.insert(into: "status_lists")
                .columns("id", "bits", "size", "open", "version", "created_at")
                .values(SQLBind(id), SQLBind(bits), SQLBind(size), SQLBind(1), SQLBind(Int64(0)),
                        SQLBind(Timestamp.milliseconds(createdAt)))
                .run()
        }

        /// Sets the status at `index` of `listID` and bumps the list's version.
        func setStatus(_ value: UInt8, listID: String, index: Int) async throws {
            try await db.update("status_list_entries").set("status", to: Int(value))
                .where("list_id", .equal, listID).where("idx", .equal, index).run()
            try await db.raw("UPDATE status_lists SET version = version + 1 WHERE id = \(bind: listID)").run()
        }
    }

    // MARK: reads

    /// The status of one handed-out index; nil for an index that was never handed out.
    func status(listID: String, index: Int) async throws -> UInt8? {
        try await database.sql.select().column("status").from("status_list_entries")
            .where("list_id", .equal, listID).where("idx", .equal, index).first()
            .map { UInt8(clamping: try $0.decode(column: "status", as: Int.self)) }
    }

    /// Every list's id, oldest first.
    func listIDs() async throws -> [String] {
        try await database.sql.select().column("id").from("status_lists").orderBy("created_at").orderBy("id").all()
            .map { try $0.decode(column: "id", as: String.self) }
    }

    func list(id: String) async throws -> ListRow? {
        guard let row = try await database.sql.select().columns("bits", "size", "version").from("status_lists")
            .where("id", .equal, id).first() else { return nil }
        return ListRow(bits: try row.decode(column: "bits", as: Int.self), size: try row.decode(column: "size", as: Int.self),
                       version: try row.decode(column: "version", as: Int64.self))
    }

    /// The list's entries whose status is not 0, as (index, status).
    func changedEntries(listID: String) async throws -> [(index: Int, status: UInt8)] {
        try await database.sql.select().columns("idx", "status").from("status_list_entries")
            .where("list_id", .equal, listID).where("status", .notEqual, 0).all().map { row in
            (try row.decode(column: "idx", as: Int.self), UInt8(try row.decode(column: "status", as: Int.self)))
        }
    }

    // MARK: settings

    /// The stored settings, or nil when none were set.
    func settings() async throws -> StatusListSettings? {
        guard let row = try await database.sql.select().columns("ttl_seconds", "exp_seconds").from("status_list_settings")
            .where("id", .equal, 1).first() else { return nil }
        return StatusListSettings(ttlSeconds: try row.decode(column: "ttl_seconds", as: Int64.self),
                                  expSeconds: try row.decode(column: "exp_seconds", as: Int64.self))
    }

    /// Stores new settings and drops every stored token, in one transaction.
    func replaceSettings(_ settings: StatusListSettings) async throws {
        try await database.transaction { db in
            try await db.insert(into: "status_list_settings").columns("id", "ttl_seconds", "exp_seconds")
                .values(SQLBind(1), SQLBind(settings.ttlSeconds), SQLBind(settings.expSeconds))
                .onConflict(with: ["id"]) { $0.set(excludedValueOf: "ttl_seconds").set(excludedValueOf: "exp_seconds") }
                .run()
            try await db.delete(from: "status_list_tokens").run()
        }
    }

    // MARK: tokens

    func token(listID: String, format: StatusListToken.Format) async throws -> StoredToken? {
        guard let row = try await database.sql.select().columns("version", "signed_at", "token").from("status_list_tokens")
            .where("list_id", .equal, listID).where("format", .equal, format.rawValue).first() else { return nil }
        return StoredToken(version: try row.decode(column: "version", as: Int64.self),
                           signedAt: Timestamp.date(try row.decode(column: "signed_at", as: Int64.self)),
                           bytes: Array(try row.decode(column: "token", as: Data.self)))
    }

    func saveToken(_ token: StoredToken, listID: String, format: StatusListToken.Format) async throws {
        try await database.sql.insert(into: "status_list_tokens")
            .columns("list_id", "format", "version", "signed_at", "token")
            .values(SQLBind(listID), SQLBind(format.rawValue), SQLBind(token.version), SQLBind(Timestamp.milliseconds(token.signedAt)),
                    SQLBind(Data(token.bytes)))
            .onConflict(with: ["list_id", "format"]) {
                $0.set(excludedValueOf: "version").set(excludedValueOf: "signed_at").set(excludedValueOf: "token")
            }
            .run()
    }
}
