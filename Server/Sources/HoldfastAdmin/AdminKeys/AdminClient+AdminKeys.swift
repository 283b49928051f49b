import Foundation
import HoldfastProtocol

/// The admin API keys (docs/server-api.md "API"; `AdminKeyRoutes`).
extension AdminClient {
    /// A new key; its secret (`CreatedAdminKey.key`) is shown only in this answer.
    public func createAdminKey(_ request: AdminKeyCreateRequest) async throws -> CreatedAdminKey {
        try await call("POST", AdminKeyRoutes.Template.keys, body: request, expecting: 201)
    }

    /// One page of the keys, oldest first (revoked ones included, with their `revokedAt`).
    public func adminKeys(limit: Int? = nil, cursor: String? = nil) async throws -> AdminKeyPage {
        try await call("GET", AdminKeyRoutes.Template.keys, query: Self.page(limit: limit, cursor: cursor), expecting: 200)
    }

    /// Revokes a key; the answer is the key with its `revokedAt`.
    public func revokeAdminKey(id: String) async throws -> AdminKey {
        try await call("DELETE", AdminKeyRoutes.Template.key, ["id": id], expecting: 200)
    }
}
