import Foundation

/// An admin API key as the API and the CLI show it: never the secret, never its hash.
public struct AdminKey: Codable, Sendable, Equatable {
    public var id: String
    public var name: String
    public var createdAt: Date
    public var lastUsedAt: Date?
    public var revokedAt: Date?
    /// The key created on first start.
    public var bootstrap: Bool
    /// What the key may do (docs/server-api.md "API"): `admin`, the whole admin API; `verifier`, only the verifier's
    /// sessions (`POST /v2/presentations/sessions` and the results of the sessions it made); `sca`, only SCA proof
    /// verification.
    public var scope: Scope

    public var isActive: Bool { revokedAt == nil }

    public init(id: String, name: String, createdAt: Date, lastUsedAt: Date? = nil, revokedAt: Date? = nil, bootstrap: Bool = false,
                scope: Scope) {
        self.id = id
        self.name = name
        self.createdAt = createdAt
        self.lastUsedAt = lastUsedAt
        self.revokedAt = revokedAt
        self.bootstrap = bootstrap
        self.scope = scope
    }

    public enum Scope: String, Codable, Sendable, CaseIterable {
        case admin
        case verifier
        /// Only `POST /v1/sca/proofs/verify`, for a bank's back end.
        case sca
    }
}

/// A key just created: the only time the full key (`hfk_<id>_<secret>`) is shown.
public struct CreatedAdminKey: Codable, Sendable, Equatable {
    public var key: String
    public var adminKey: AdminKey

    enum CodingKeys: String, CodingKey {
        case key, id, name, createdAt, lastUsedAt, revokedAt, bootstrap, scope
    }

    public init(key: String, adminKey: AdminKey) {
        self.key = key
        self.adminKey = adminKey
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        key = try container.decode(String.self, forKey: .key)
        adminKey = try AdminKey(from: decoder)
    }

    public func encode(to encoder: any Encoder) throws {
        try adminKey.encode(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(key, forKey: .key)
    }
}

/// One page of `GET /v1/admin/keys`, oldest first; `nextCursor` continues after the last item.
public struct AdminKeyPage: Codable, Sendable, Equatable {
    public var keys: [AdminKey]
    public var nextCursor: String?

    public init(keys: [AdminKey], nextCursor: String?) {
        self.keys = keys
        self.nextCursor = nextCursor
    }
}

/// `POST /v1/admin/keys`: a name for the key and its scope (`admin` when absent).
public struct AdminKeyCreateRequest: Codable, Sendable, Hashable {
    public var name: String
    public var scope: AdminKey.Scope?

    public init(name: String, scope: AdminKey.Scope? = nil) {
        self.name = name
        self.scope = scope
    }
}
