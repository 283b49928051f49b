import Foundation
import HoldfastAdmin
import HoldfastProtocol
import Logging

/// The admin view of instances (docs/server-api.md "API"): list an application's live instances and revoke one. Used by the HTTP
/// API and by `holdfast admin instances …` alike.
public struct HolderInstanceService: Sendable {
    let applications: HolderApplicationService
    let store: InstanceStore
    let logger: Logger

    public init(database: HoldfastDatabase, logger: Logger) {
        self.init(applications: HolderApplicationService(database: database, logger: logger),
                  store: InstanceStore(database: database), logger: logger)
    }

    init(applications: HolderApplicationService, store: InstanceStore, logger: Logger) {
        self.applications = applications
        self.store = store
        self.logger = logger
    }

    /// Live instances of `applicationId` by registration time, `limit` (1…500, default 50) at most, after `cursor`
    /// (a `nextCursor`). `APPLICATION_NOT_FOUND` for an unknown application.
    public func list(applicationId: String, limit: Int?, cursor: String?) async throws -> InstancePage {
        let application = try await applications.get(id: applicationId)
        let limit = try PageLimit.parse(limit)
        let position = try cursor.map { try KeysetCursor(parameter: $0) }
        return try await store.list(applicationId: application.id ?? applicationId, limit: limit, cursor: position)
    }

    /// Revokes a live instance: from now on every token and DPoP proof of it is refused (`INSTANCE_REVOKED`).
    public func delete(applicationId: String, instanceId: String, now: Date) async throws {
        _ = try await applications.get(id: applicationId)
        let instance = try await store.live(applicationId: applicationId, id: instanceId)
        guard try await store.revoke(id: instance.id, now: now) else { throw TetheringError.instanceNotFound(instanceId) }
        logger.info("instance revoked", metadata: ["application_id": .string(applicationId), "instance_id": .string(instance.id)])
    }

    /// Approves or rejects a `pending` instance; 409 `CONFLICT` when it is not pending. The instance as listed after.
    public func decide(applicationId: String, instanceId: String, approve: Bool) async throws -> InstanceListItem {
        _ = try await applications.get(id: applicationId)
        let instance = try await store.live(applicationId: applicationId, id: instanceId)
        guard try await store.setStatus(id: instance.id, from: .pending, to: approve ? .registered : .rejected) else {
            throw ProblemError(status: .conflict, code: .conflict, title: "Not pending",
                               detail: "the instance is \(instance.status.rawValue), not pending")
        }
        return try await store.live(applicationId: applicationId, id: instanceId).listItem
    }
}
