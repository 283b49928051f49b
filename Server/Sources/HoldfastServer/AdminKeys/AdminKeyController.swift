import HoldfastAdmin
import HoldfastProtocol
import Hummingbird

/// `GET/POST /v1/admin/keys`, `DELETE /v1/admin/keys/{id}` — all behind admin authentication.
///
/// A revoked key is not deleted: it stays in the list with its `revokedAt`, the audit trail of who had
/// access. There is no `GET /v1/admin/keys/{id}`, so that a revoked resource is never served by id.
struct AdminKeyController: HoldfastController {
    let adminKeys: AdminKeyService
    let clock: any HoldfastClock

    var routes: [Route] {
        [
            .admin(.get, AdminKeyRoutes.Template.keys) { request, _ in
                let limit = try QueryParameters.integer("limit", in: request) ?? AdminKeyService.defaultPageSize
                let cursor = try QueryParameters.string("cursor", in: request)
                return try JSONResponse.make(try await adminKeys.list(limit: limit, after: cursor))
            },
            .admin(.post, AdminKeyRoutes.Template.keys) { request, context in
                let body = try await JSONBodyDecoder.decode(AdminKeyCreateRequest.self, from: request, context: context)
                let created = try await adminKeys.create(name: body.name, scope: body.scope ?? .admin, now: clock.now())
                return try JSONResponse.make(created, status: .created, headers: JSONResponse.noStore)
            },
            .admin(.delete, AdminKeyRoutes.Template.key) { _, context in
                let id = try context.parameters.require("id")
                return try JSONResponse.make(try await adminKeys.revoke(id: id, actingKeyID: context.adminKey.id, now: clock.now()))
            },
        ]
    }
}
