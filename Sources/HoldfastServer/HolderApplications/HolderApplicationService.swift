import Foundation
import HoldfastAdmin
import HoldfastProtocol
import Logging
import SQLKit

/// Holder applications (README "API"): create, list, get, replace, delete. Deleting an application revokes all of its
/// instances in the same transaction, so that no token of theirs is accepted afterwards.
public struct HolderApplicationService: Sendable {
    public let database: HoldfastDatabase
    let logger: Logger

    public init(database: HoldfastDatabase, logger: Logger) {
        self.database = database
        self.logger = logger
    }

    /// Validates and stores a new application with a generated `id`.
    public func create(_ request: HolderApplication, now: Date) async throws -> HolderApplication {
        var application = try Self.validated(request)
        application.id = ResourceID.generate()
        let document = try Self.document(application)
        let now = Timestamp.milliseconds(now)
        try await uniqueName(application.name) {
            try await database.sql.insert(into: "holder_applications")
                .columns("id", "name", "platform", "document", "created_at", "updated_at")
                .values(SQLBind(application.id), SQLBind(application.name),
                        SQLBind(application.platform.holderPlatform.rawValue), SQLBind(document), SQLBind(now), SQLBind(now))
                .run()
        }
        logger.info("holder application created", metadata: ["application_id": .string(application.id ?? "")])
        return application
    }

    /// Applications in creation order, `limit` at most, after `cursor`.
    public func list(limit: Int?, cursor: String?) async throws -> HolderApplicationPage {
        let limit = try PageLimit.parse(limit)
        let after = try cursor.map { try KeysetCursor(parameter: $0) }
        let (rows, next) = try await KeysetCursor.page(database.sql.select().column("*").from("holder_applications"),
                                                       timeColumn: "created_at", after: after, limit: limit)
        let items = try rows.map(Self.application)
        return HolderApplicationPage(data: items, nextCursor: next)
    }

    /// One application, or `APPLICATION_NOT_FOUND`.
    public func get(id: String) async throws -> HolderApplication {
        guard ResourceID.isValid(id),
              let row = try await database.sql.raw("SELECT id, document FROM holder_applications WHERE id = \(bind: id)")
                .first() else { throw TetheringError.applicationNotFound(id) }
        return try Self.application(row)
    }

    /// Replaces an application's settings (`PUT`). The `type` cannot change: its instances were attested for
    /// the platform they registered on.
    public func replace(id: String, with request: HolderApplication, now: Date) async throws -> HolderApplication {
        let existing = try await get(id: id)
        var application = try Self.validated(request, id: id)
        guard existing.platform.holderPlatform == application.platform.holderPlatform else {
            throw ProblemError(status: .conflict, code: .conflict, title: "Type cannot change",
                               detail: "the type of an application cannot change; create another application",
                               errors: [ProblemDetails.FieldError(field: "type", code: ProblemDetails.FieldError.immutable,
                                                                  detail: "the type of an application cannot change")])
        }
        application.id = id
        let document = try Self.document(application)
        try await uniqueName(application.name) {
            try await database.sql.update("holder_applications")
                .set("name", to: application.name).set("document", to: document).set("updated_at", to: Timestamp.milliseconds(now))
                .where("id", .equal, id).run()
        }
        return application
    }

    /// Deletes an application and revokes every instance of it, at once.
    public func delete(id: String, now: Date) async throws {
        _ = try await get(id: id)
        let now = Timestamp.milliseconds(now)
        let revoked = try await database.transaction { session -> Int in
            try await session.delete(from: "holder_applications").where("id", .equal, id).run()
            let count = try await session.select().column(SQLFunction("COUNT", args: SQLLiteral.all), as: "n")
                .from("holder_instances").where("application_id", .equal, id).where("revoked_at", .is, SQLLiteral.null)
                .first()?.decode(column: "n", as: Int64.self) ?? 0
            try await session.update("holder_instances").set("revoked_at", to: now)
                .where("application_id", .equal, id).where("revoked_at", .is, SQLLiteral.null).run()
            return Int(count)
        }
        logger.info("holder application deleted", metadata: ["application_id": .string(id),
                                                             "instances_revoked": .stringConvertible(revoked)])
    }

    /// Runs an insert or update that may hit the unique name, turning the violation into `APPLICATION_NAME_TAKEN`.
    private func uniqueName(_ name: String, _ write: () async throws -> Void) async throws {
        do {
            try await write()
        } catch {
            let holder = try? await database.sql.select().column("id").from("holder_applications")
                .where("name", .equal, name).first()
            if holder != nil { throw TetheringError.applicationNameTaken(name) }
            throw error
        }
    }

    static func validated(_ request: HolderApplication, id: String? = nil) throws -> HolderApplication {
        var errors = HolderApplicationValidator.errors(in: request)
        if let given = request.id, given != id {
            errors.append(ProblemDetails.FieldError(field: "id", code: ProblemDetails.FieldError.readOnly, detail: "the id is assigned by the server"))
        }
        guard errors.isEmpty else { throw ProblemError.validation(errors) }
        var application = request
        if case .android(var settings) = application.platform {
            settings.packageSigningCertificateThumbprints = settings.packageSigningCertificateThumbprints.map { $0.lowercased() }
            application.platform = .android(settings)
        }
        return application
    }

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
