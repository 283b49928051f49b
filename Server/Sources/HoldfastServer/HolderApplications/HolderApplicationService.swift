import Foundation
import HoldfastAdmin
import HoldfastProtocol
import Logging

/// Holder applications (docs/server-api.md "API"): create, list, get, replace, delete. Deleting an application revokes all of its
/// instances in the same transaction, so that no token of theirs is accepted afterwards. The SQL is
/// `HolderApplicationStore`'s.
public struct HolderApplicationService: Sendable {
    let store: HolderApplicationStore
    let logger: Logger
    /// Seals a Play Integrity decryption key (docs/server-api.md "Play Integrity"); without it such a key is refused.
    let masterKey: MasterKey?
    /// Where application ids are drawn from.
    let random: any RandomSource

    public init(database: HoldfastDatabase, logger: Logger, masterKey: MasterKey? = nil,
                random: any RandomSource = SystemRandomSource()) {
        self.store = HolderApplicationStore(database: database)
        self.logger = logger
        self.masterKey = masterKey
        self.random = random
    }

    /// The service for a command run on the tenant's database, with the tenant's master key (`configuration`), so
    /// that a Play Integrity key is sealed as the server seals it.
    public static func open(configuration: HoldfastConfiguration, database: HoldfastDatabase,
                            logger: Logger) throws -> HolderApplicationService {
        HolderApplicationService(database: database, logger: logger, masterKey: try MasterKey.load(configuration.masterKey))
    }

    /// Validates and stores a new application with a generated `id`.
    public func create(_ request: HolderApplication, now: Date) async throws -> HolderApplication {
        var application = try Self.validated(request)
        application.id = random.identifier()
        application = try sealed(application, existing: nil)
        try await uniqueName(application.name) { [application] in
            try await store.insert(application, now: now)
        }
        logger.info("holder application created", metadata: ["application_id": .string(application.id ?? "")])
        return Self.redacted(application)
    }

    /// Applications in creation order, `limit` at most, after `cursor`.
    public func list(limit: Int?, cursor: String?) async throws -> HolderApplicationPage {
        let limit = try PageLimit.parse(limit)
        let after = try cursor.map { try KeysetCursor(parameter: $0) }
        let (applications, next) = try await store.page(after: after, limit: limit)
        return HolderApplicationPage(data: applications.map(Self.redacted), nextCursor: next)
    }

    /// One application as answers show it, or `APPLICATION_NOT_FOUND`.
    public func get(id: String) async throws -> HolderApplication {
        Self.redacted(try await stored(id: id))
    }

    /// One application as stored (a Play Integrity key sealed, not redacted), or `APPLICATION_NOT_FOUND`.
    func stored(id: String) async throws -> HolderApplication {
        guard ResourceID.isValid(id), let application = try await store.get(id: id) else {
            throw TetheringError.applicationNotFound(id)
        }
        return application
    }

    /// An application without its Play Integrity key or the key's seal: what every answer shows.
    static func redacted(_ application: HolderApplication) -> HolderApplication {
        guard case .android(var settings) = application.platform, let integrity = settings.playIntegrity else { return application }
        var copy = application
        settings.playIntegrity = integrity.redacted
        copy.platform = .android(settings)
        return copy
    }

    /// The application with its Play Integrity decryption key sealed with the master key (docs/server-api.md "Play Integrity"),
    /// bound to the application's id; a `PUT` without a key keeps the stored seal, and a `playIntegrity` with
    /// neither is `VALIDATION_FAILED`.
    func sealed(_ application: HolderApplication, existing: HolderApplication?) throws -> HolderApplication {
        guard case .android(var settings) = application.platform, var integrity = settings.playIntegrity else { return application }
        if let key = integrity.decryptionKey.flatMap({ Data(base64Encoded: $0) }) {
            guard let masterKey else {
                throw ProblemError.invalidField("playIntegrity.decryptionKey", code: ProblemDetails.FieldError.invalidValue,
                                                detail: "this tenant cannot seal a decryption key (no master key)")
            }
            let context = PlayIntegrityVerifier.sealContext(applicationId: application.id ?? "")
            integrity.sealedDecryptionKey = Data(try masterKey.seal(Array(key), context: context)).base64EncodedString()
        } else if case .android(let previous)? = existing?.platform, let seal = previous.playIntegrity?.sealedDecryptionKey {
            integrity.sealedDecryptionKey = seal
        } else {
            throw ProblemError.invalidField("playIntegrity.decryptionKey", code: ProblemDetails.FieldError.required,
                                            detail: "the base64 of the 32-byte decryption key from the Play Console")
        }
        integrity.decryptionKey = nil
        settings.playIntegrity = integrity
        var copy = application
        copy.platform = .android(settings)
        return copy
    }

    /// Replaces an application's settings (`PUT`). The `type` cannot change: its instances were attested for
    /// the platform they registered on.
    public func replace(id: String, with request: HolderApplication, now: Date) async throws -> HolderApplication {
        let existing = try await stored(id: id)
        var application = try Self.validated(request, id: id)
        guard existing.platform.holderPlatform == application.platform.holderPlatform else {
            throw ProblemError(status: .conflict, code: .conflict, title: "Type cannot change",
                               detail: "the type of an application cannot change; create another application",
                               errors: [ProblemDetails.FieldError(field: "type", code: ProblemDetails.FieldError.immutable,
                                                                  detail: "the type of an application cannot change")])
        }
        application.id = id
        application = try sealed(application, existing: existing)
        try await uniqueName(application.name) { [application] in
            try await store.update(application, id: id, now: now)
        }
        return Self.redacted(application)
    }

    /// Deletes an application and revokes every instance of it, at once.
    public func delete(id: String, now: Date) async throws {
        _ = try await get(id: id)
        let revoked = try await store.transaction { transaction in
            try await transaction.delete(id: id)
            return try await transaction.instances.revokeAll(applicationId: id, now: now)
        }
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
