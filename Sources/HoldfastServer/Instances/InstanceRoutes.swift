import HoldfastProtocol
import Hummingbird

/// Registration (open: the device has no credential yet; the challenge and the evidence are what it proves) and
/// the admin view of instances (issue 5).
enum InstanceRoutes {
    static func routes(_ services: ServerServices) -> [Route] {
        let tethering = TetheringServices(services)
        let applications = tethering.applications
        let admin = HolderInstanceService(database: services.database, logger: services.logger)
        return [
            Route(.post, "/v1/holder/applications/{applicationId}/challenges", access: .open) { _, context in
                let application = try await applications.get(id: context.parameters.get("applicationId") ?? "")
                let challenge = try await tethering.challenges.issue(applicationId: application.id ?? "")
                return try JSONResponse.make(challenge, status: .created, headers: noStore)
            },
            Route(.post, "/v1/holder/applications/{applicationId}/instances", access: .open) { request, context in
                let application = try await applications.get(id: context.parameters.get("applicationId") ?? "")
                let developmentMode = try tethering.devMode.evaluate(request, application: application,
                                                                     requestID: context.requestID)
                let body = try await JSONBodyDecoder.decode(InstanceRegistrationRequest.self, from: request, context: context)
                let response = try await tethering.registration.register(body, application: application,
                                                                         developmentMode: developmentMode)
                return try JSONResponse.make(response, status: .created, headers: noStore)
            },
            Route(.get, "/v1/holder/applications/{applicationId}/instances", access: .admin) { request, context in
                let page = try await admin.list(applicationId: context.parameters.get("applicationId") ?? "",
                                                limit: try QueryParameters.integer("limit", in: request),
                                                cursor: try QueryParameters.string("cursor", in: request))
                return try JSONResponse.make(page)
            },
            Route(.delete, "/v1/holder/applications/{applicationId}/instances/{instanceId}", access: .admin) { _, context in
                try await admin.delete(applicationId: context.parameters.get("applicationId") ?? "",
                                       instanceId: context.parameters.get("instanceId") ?? "")
                return Response(status: .noContent)
            },
            Route(.post, "/v1/holder/applications/{applicationId}/instances/{instanceId}/approve", access: .admin) { _, context in
                try await decide(context, approve: true, tethering)
            },
            Route(.post, "/v1/holder/applications/{applicationId}/instances/{instanceId}/reject", access: .admin) { _, context in
                try await decide(context, approve: false, tethering)
            },
        ]
    }

    static var noStore: HTTPFields {
        var headers = HTTPFields()
        headers[.cacheControl] = "no-store"
        return headers
    }

    /// Approves or rejects a `pending` instance; 409 `CONFLICT` when it is not pending.
    private static func decide(_ context: HoldfastRequestContext, approve: Bool,
                               _ tethering: TetheringServices) async throws -> Response {
        let applicationId = context.parameters.get("applicationId") ?? ""
        let instanceId = context.parameters.get("instanceId") ?? ""
        _ = try await tethering.applications.get(id: applicationId)
        let instance = try await tethering.instances.live(applicationId: applicationId, id: instanceId)
        guard try await tethering.instances.setStatus(id: instance.id, from: .pending, to: approve ? .registered : .rejected) else {
            throw ProblemError(status: .conflict, code: ProblemError.Code.conflict, title: "Not pending",
                               detail: "the instance is \(instance.status.rawValue), not pending")
        }
        let updated = try await tethering.instances.live(applicationId: applicationId, id: instanceId)
        return try JSONResponse.make(updated.listItem)
    }
}
