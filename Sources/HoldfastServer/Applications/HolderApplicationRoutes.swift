import HoldfastProtocol
import Hummingbird

/// `/v1/holder/applications` (issue 5), admin API key: create, list, get, replace, delete.
enum HolderApplicationRoutes {
    static func routes(_ services: ServerServices) -> [Route] {
        let applications = HolderApplicationService(database: services.database, logger: services.logger)
        return [
            Route(.post, "/v1/holder/applications", access: .admin) { request, context in
                let body = try await JSONBodyDecoder.decode(HolderApplication.self, from: request, context: context)
                return try JSONResponse.make(try await applications.create(body), status: .created)
            },
            Route(.get, "/v1/holder/applications", access: .admin) { request, _ in
                let page = try await applications.list(limit: try QueryParameters.integer("limit", in: request),
                                                       cursor: try QueryParameters.string("cursor", in: request))
                return try JSONResponse.make(page)
            },
            Route(.get, "/v1/holder/applications/{applicationId}", access: .admin) { _, context in
                try JSONResponse.make(try await applications.get(id: context.parameters.get("applicationId") ?? ""))
            },
            Route(.put, "/v1/holder/applications/{applicationId}", access: .admin) { request, context in
                let id = context.parameters.get("applicationId") ?? ""
                _ = try await applications.get(id: id)
                let body = try await JSONBodyDecoder.decode(HolderApplication.self, from: request, context: context)
                return try JSONResponse.make(try await applications.replace(id: id, with: body))
            },
            Route(.delete, "/v1/holder/applications/{applicationId}", access: .admin) { _, context in
                try await applications.delete(id: context.parameters.get("applicationId") ?? "")
                return Response(status: .noContent)
            },
        ]
    }
}
