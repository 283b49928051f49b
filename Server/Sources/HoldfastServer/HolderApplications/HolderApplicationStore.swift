import Foundation
import HoldfastAdmin
import HoldfastProtocol
import SQLKit

/// SQL for `holder_applications`: each row the application's document (`HolderApplication` without its `id`) under
/// its id, with its name in a unique column of its own (`HolderApplicationMigrations`).
struct HolderApplicationStore: Sendable, PagedStore {
    let database: HoldfastDatabase

    /// Stores a new application (its `id` set); a taken name fails with the database's unique-constraint error.
    func insert(_ application: HolderApplication, now: Date) async throws {
        let now = Timestamp.milliseconds(now)
        try await database.sql.insert(into: "holder_applications")
            .columns("id", "name", "platform", "document", "created_at", "updated_at")
            .values(SQLBind(application.id ?? ""), SQLBind(application.name),
                    SQLBind(application.platform.holderPlatform.rawValue), SQLBind(try Self.document(application)),
                    SQLBind(now), SQLBind(now))
            .run()
    }

    /// A page of applications by creation time, after `cursor`; with the next page's cursor when there is one.
    func page(after cursor: KeysetCursor?, limit: Int) async throws -> (applications: [HolderApplication], nextCursor: String?) {
        let (rows, next) = try await Self.page(database.sql.select().column("*").from("holder_applications"),
                                                       timeColumn: "created_at", after: cursor, limit: limit)
        return (try rows.map(Self.application), next)
    }

    /// The application with this id, or nil.
    func get(id: String) async throws -> HolderApplication? {
        try await database.sql.raw("SELECT id, document FROM holder_applications WHERE id = \(bind: id)").first()
            .map(Self.application)
    }

    /// Replaces an application's name and document; a taken name fails with the database's unique-constraint error.
    func update(_ application: HolderApplication, id: String, now: Date) async throws {
        try await database.sql.update("holder_applications")
            .set("name", to: application.name).set("document", to: try Self.document(application))
            .set("updated_at", to: Timestamp.milliseconds(now))
            .where("id", .equal, id).run()
    }

    /// The id of the application named `name`, or nil.
    func id(named name: String) async throws -> String? {
        try await database.sql.select().column("id").from("holder_applications").where("name", .equal, name).first()?
            .decode(column: "id", as: String.self)
    }

    /// Runs `body` in one transaction: what an application's deletion writes, at once.
    func transaction<T: Sendable>(_ body: @escaping @Sendable (Transaction) async throws -> T) async throws -> T {
        try await database.transaction { db in try await body(Transaction(db: db)) }
    }

    /// The statements an application's deletion is made of, on one transaction's connection.
    struct Transaction: Sendable {
        let db: any SQLDatabase

        /// The application's instances, on the same transaction.
        var instances: InstanceStore.Transaction { InstanceStore.Transaction(db: db) }

        /// Deletes the application's row.
        func delete(id: String) async throws {
            try await db.delete(from: "holder_applications").where("id", .equal, id).run()
        }
    }

    /// The stored document: the application as the API shows it, without its `id` (the row's key).
    static func document(_ application: HolderApplication) throws -> String {
        var stored = application
        stored.id = nil
        return String(decoding: try HoldfastJSON.encode(stored), as: UTF8.self)
    }

    /// Decoded documents by their text: every instance call reads its application, and an application's document
    /// changes only on `PUT`.
    private static let documents = DecodedJSONCache<HolderApplication>(capacity: 256)

    static func application(_ row: any SQLRow) throws -> HolderApplication {
        try application(id: row.decode(column: "id", as: String.self), document: row.decode(column: "document", as: String.self))
    }

    /// An application from its stored document (which has no `id`) and its id.
    static func application(id: String, document: String) throws -> HolderApplication {
        var application = try documents.decode(document)
        application.id = id
        return application
    }
}
