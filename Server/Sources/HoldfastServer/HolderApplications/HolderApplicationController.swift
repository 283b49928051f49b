import HoldfastAdmin
import HoldfastProtocol
import Hummingbird

/// `/v1/holder/applications` (docs/server-api.md "API"), admin API key: create, list, get, replace, delete.
struct HolderApplicationController: HoldfastController {
    typealias Template = TetheringAdminRoutes.Template

    let applications: HolderApplicationService
    let clock: any HoldfastClock

    var routes: [Route] {
        [
            .admin(.post, Template.applications) { request, context in
                let body = try await JSONBodyDecoder.decode(HolderApplication.self, from: request, context: context)
                return try JSONResponse.make(try await applications.create(body, now: clock.now()), status: .created)
            },
            .admin(.get, Template.applications) { request, _ in
                let page = try await applications.list(limit: try QueryParameters.integer("limit", in: request),
                                                       cursor: try QueryParameters.string("cursor", in: request))
                return try JSONResponse.make(page)
            },
            .admin(.get, Template.application) { _, context in
                try JSONResponse.make(try await applications.get(id: try context.parameters.require("applicationId")))
            },
            .admin(.put, Template.application) { request, context in
                let id = try context.parameters.require("applicationId")
                _ = try await applications.get(id: id)
                let body = try await JSONBodyDecoder.decode(HolderApplication.self, from: request, context: context)
                return try JSONResponse.make(try await applications.replace(id: id, with: body, now: clock.now()))
            },
            .admin(.delete, Template.application) { _, context in
                try await applications.delete(id: try context.parameters.require("applicationId"), now: clock.now())
                return Response(status: .noContent)
            },
        ]
    }
}
