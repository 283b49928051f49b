import Foundation
import HoldfastAdmin
import HoldfastProtocol
import Logging

/// Holder applications (README "API"): create, list, get, replace, delete. Deleting an application revokes all of its
/// instances in the same transaction, so that no token of theirs is accepted afterwards. The SQL is
/// `HolderApplicationStore`'s.
public struct HolderApplicationService: Sendable {
    let store: HolderApplicationStore
    let logger: Logger

    public init(database: HoldfastDatabase, logger: Logger) {
        self.store = HolderApplicationStore(database: database)
        self.logger = logger
    }

    /// Validates and stores a new application with a generated `id`.
    public func create(_ request: HolderApplication, now: Date) async throws -> HolderApplication {
        var application = try Self.validated(request)
        application.id = ResourceID.generate()
        try await uniqueName(application.name) { [application] in
            try await store.insert(application, now: Timestamp.milliseconds(now))
        }
        logger.info("holder application created", metadata: ["application_id": .string(application.id ?? "")])
        return application
    }

    /// Applications in creation order, `limit` at most, after `cursor`.
    public func list(limit: Int?, cursor: String?) async throws -> HolderApplicationPage {
        let limit = try PageLimit.parse(limit)
        let after = try cursor.map { try KeysetCursor(parameter: $0) }
        let (applications, next) = try await store.page(after: after, limit: limit)
        return HolderApplicationPage(data: applications, nextCursor: next)
    }

    /// One application, or `APPLICATION_NOT_FOUND`.
    public func get(id: String) async throws -> HolderApplication {
        guard ResourceID.isValid(id), let application = try await store.get(id: id) else {
            throw TetheringError.applicationNotFound(id)
        }
        return application
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
        try await uniqueName(application.name) { [application] in
            try await store.update(application, id: id, now: Timestamp.milliseconds(now))
        }
        return application
    }

    /// Deletes an application and revokes every instance of it, at once.
    public func delete(id: String, now: Date) async throws {
        _ = try await get(id: id)
        let revoked = try await store.delete(id: id, now: Timestamp.milliseconds(now))
        logger.info("holder application deleted", metadata: ["application_id": .string(id),
                                                             "instances_revoked": .stringConvertible(revoked)])
    }

    /// Runs an insert or update that may hit the unique name, turning the violation into `APPLICATION_NAME_TAKEN`.
    private func uniqueName(_ name: String, _ write: () async throws -> Void) async throws {
        do {
            try await write()
        } catch {
            let holder = try? await store.id(named: name)
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
}
