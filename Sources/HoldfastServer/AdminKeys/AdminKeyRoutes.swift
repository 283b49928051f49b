import Hummingbird

/// `GET/POST /v1/admin/keys`, `DELETE /v1/admin/keys/{id}` — all behind admin authentication.
///
/// A revoked key is not deleted: it stays in the list with its `revokedAt`, the audit trail of who had
/// access. There is no `GET /v1/admin/keys/{id}`, so that a revoked resource is never served by id.
enum AdminKeyRoutes {
    struct CreateRequest: Decodable {
        var name: String
    }

    static func routes(_ services: ServerServices) -> [Route] {
        let keys = services.adminKeys
        return [
            Route(.get, "/v1/admin/keys", access: .admin) { request, _ in
                let limit = try QueryParameters.integer("limit", in: request) ?? AdminKeyService.defaultPageSize
                let cursor = try QueryParameters.string("cursor", in: request)
                return try JSONResponse.make(try await keys.list(limit: limit, after: cursor))
            },
            Route(.post, "/v1/admin/keys", access: .admin) { request, context in
                let body = try await JSONBodyDecoder.decode(CreateRequest.self, from: request, context: context)
                let created = try await keys.create(name: body.name)
                var headers = HTTPFields()
                headers[.cacheControl] = "no-store"
                return try JSONResponse.make(created, status: .created, headers: headers)
            },
            Route(.delete, "/v1/admin/keys/{id}", access: .admin) { _, context in
                let id = context.parameters.get("id") ?? ""
                return try JSONResponse.make(try await keys.revoke(id: id, actingKeyID: context.adminKey?.id))
            },
        ]
    }
}
