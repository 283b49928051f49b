import HoldfastAdmin
import HoldfastProtocol
import Hummingbird

/// The admin view of an application's instances (docs/server-api.md "API"): list, revoke, and approve or reject a `pending`
/// one.
struct InstanceController: HoldfastController {
    typealias Template = TetheringAdminRoutes.Template

    let applications: HolderApplicationService
    let instances: InstanceStore
    let admin: HolderInstanceService
    let clock: any HoldfastClock

    var routes: [Route] {
        [
            .admin(.get, TetheringRoutes.Template.instances) { request, context in
                let page = try await admin.list(applicationId: try context.parameters.require("applicationId"),
                                                limit: try QueryParameters.integer("limit", in: request),
                                                cursor: try QueryParameters.string("cursor", in: request))
                return try JSONResponse.make(page)
            },
            .admin(.delete, Template.instance) { _, context in
                try await admin.delete(applicationId: try context.parameters.require("applicationId"),
                                       instanceId: try context.parameters.require("instanceId"), now: clock.now())
                return Response(status: .noContent)
            },
            .admin(.post, Template.approve) { _, context in
                try await decide(context, approve: true)
            },
            .admin(.post, Template.reject) { _, context in
                try await decide(context, approve: false)
            },
        ]
    }

    /// Approves or rejects a `pending` instance; 409 `CONFLICT` when it is not pending.
    private func decide(_ context: AdminRequestContext, approve: Bool) async throws -> Response {
        let applicationId = try context.parameters.require("applicationId")
        let instanceId = try context.parameters.require("instanceId")
        _ = try await applications.get(id: applicationId)
        let instance = try await instances.live(applicationId: applicationId, id: instanceId)
        guard try await instances.setStatus(id: instance.id, from: .pending, to: approve ? .registered : .rejected) else {
            throw ProblemError(status: .conflict, code: .conflict, title: "Not pending",
                               detail: "the instance is \(instance.status.rawValue), not pending")
        }
        let updated = try await instances.live(applicationId: applicationId, id: instanceId)
        return try JSONResponse.make(updated.listItem)
    }
}
