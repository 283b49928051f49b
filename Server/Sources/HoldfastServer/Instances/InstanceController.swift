import HoldfastAdmin
import HoldfastProtocol
import Hummingbird

/// The admin view of an application's instances (docs/server-api.md "API"): list, revoke, and approve or reject a `pending`
/// one.
struct InstanceController: HoldfastController {
    typealias Template = TetheringAdminRoutes.Template

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
                try JSONResponse.make(try await admin.decide(applicationId: try context.parameters.require("applicationId"),
                                                             instanceId: try context.parameters.require("instanceId"), approve: true))
            },
            .admin(.post, Template.reject) { _, context in
                try JSONResponse.make(try await admin.decide(applicationId: try context.parameters.require("applicationId"),
                                                             instanceId: try context.parameters.require("instanceId"), approve: false))
            },
        ]
    }
}
