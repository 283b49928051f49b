import Foundation
import HoldfastProtocol
import HoldfastSDK
import JOSE

/// The tenant's admin API over real HTTP (issue 5, "holder applications"), authenticated with an admin API key,
/// plus raw requests for the checks the SDK would never make on its own.
struct TenantAdminClient: Sendable {
    let baseURL: String
    let adminKey: String
    let transport = URLSessionTransport()

    struct Failure: Error, CustomStringConvertible {
        let status: Int
        let problem: ProblemDetails?
        var description: String { "HTTP \(status): \(problem?.code?.rawValue ?? "-") \(problem?.detail ?? "")" }
    }

    func createApplication(_ application: HolderApplication) async throws -> HolderApplication {
        try await call("POST", TetheringRoutes.applications, body: application, expecting: 201)
    }

    func application(id: String) async throws -> HolderApplication {
        try await call("GET", TetheringRoutes.application(id), expecting: 200)
    }

    func instances(applicationId: String, limit: Int? = nil, cursor: String? = nil) async throws -> InstancePage {
        var path = TetheringRoutes.instances(applicationId: applicationId)
        var query: [String] = []
        if let limit { query.append("\(TetheringRoutes.Query.limit)=\(limit)") }
        if let cursor { query.append("\(TetheringRoutes.Query.cursor)=\(TetheringRoutes.segment(cursor))") }
        if !query.isEmpty { path += "?" + query.joined(separator: "&") }
        return try await call("GET", path, expecting: 200)
    }

    /// Every instance of the application, following `nextCursor`.
    func allInstances(applicationId: String) async throws -> [InstanceListItem] {
        var items: [InstanceListItem] = []
        var cursor: String?
        for _ in 0 ..< 100 {
            let page = try await instances(applicationId: applicationId, limit: 50, cursor: cursor)
            items += page.data
            cursor = page.nextCursor
            if cursor == nil { break }
        }
        return items
    }

    func deleteInstance(applicationId: String, instanceId: String) async throws {
        let response = try await send("DELETE", TetheringRoutes.instance(applicationId: applicationId, instanceId: instanceId))
        guard response.status == 204 else { throw Self.failure(response) }
    }

    /// `GET /.well-known/jwks.json`: the keys an issuer trusts for wallet attestations.
    func jwks() async throws -> JWKSet {
        let response = try await send("GET", "/.well-known/jwks.json", authenticated: false)
        guard response.status == 200 else { throw Self.failure(response) }
        return try JSONDecoder().decode(JWKSet.self, from: response.body)
    }

    /// Any request, as it is answered.
    func send(_ method: String, _ path: String, headers: [String: String] = [:], body: Data? = nil,
              authenticated: Bool = true) async throws -> TransportResponse {
        let url = try requireURL(path)
        var request = TransportRequest(method: method, url: url, headers: headers, body: body)
        if authenticated { request.setHeader("Authorization", "Bearer \(adminKey)") }
        if body != nil, request.header("Content-Type") == nil { request.setHeader("Content-Type", "application/json") }
        return try await transport.send(request)
    }

    func url(_ path: String) throws -> URL { try requireURL(path) }

    private func requireURL(_ path: String) throws -> URL {
        guard let url = URL(string: baseURL + path) else { throw Failure(status: 0, problem: nil) }
        return url
    }

    private func call<Response: Decodable>(_ method: String, _ path: String, body: (any Encodable)? = nil,
                                           expecting status: Int) async throws -> Response {
        var data: Data?
        if let body { data = try HoldfastJSON.encode(body) }
        let response = try await send(method, path, body: data)
        guard response.status == status else { throw Self.failure(response) }
        return try HoldfastJSON.decode(Response.self, from: response.body)
    }

    static func failure(_ response: TransportResponse) -> Failure {
        Failure(status: response.status, problem: try? HoldfastJSON.decode(ProblemDetails.self, from: response.body))
    }
}

/// What a test gets: the tenant's base URL, its admin API, and a scratch folder for device state.
struct EndToEndTenant: Sendable {
    let baseURL: String
    let admin: TenantAdminClient
    let scratch: URL

    /// An iOS application as the issue's JSON shows it; assertion allowed unless `requiresAttestation`.
    func createIOSApplication(name: String = "Wallet iOS \(UUID().uuidString.prefix(8))", requiresAttestation: Bool = false,
                              channel: HolderApplicationChannel? = nil, developmentIntegrityAllowed: Bool? = nil,
                              maxTimeOfflineInSecs: Int = 86_400) async throws -> HolderApplication {
        let application = HolderApplication(
            name: name, clientId: "wallet-ios-\(UUID().uuidString.prefix(8).lowercased())",
            maxTimeOfflineInSecs: maxTimeOfflineInSecs, developmentIntegrityAllowed: developmentIntegrityAllowed,
            channel: channel,
            platform: .ios(.init(bundleId: "com.example.wallet", teamId: "ABCDE12345",
                                 appAttest: .init(required: requiresAttestation, environment: .development))))
        return try await admin.createApplication(application)
    }

    /// An Android application; assertion allowed unless `requiresAttestation`.
    func createAndroidApplication(name: String = "Wallet Android \(UUID().uuidString.prefix(8))",
                                  requiresAttestation: Bool = false) async throws -> HolderApplication {
        let application = HolderApplication(
            name: name, clientId: "wallet-android-\(UUID().uuidString.prefix(8).lowercased())",
            platform: .android(.init(packageName: "com.example.wallet",
                                     packageSigningCertificateThumbprints: [String(repeating: "ab", count: 32)],
                                     keyAttestation: .init(required: requiresAttestation))))
        return try await admin.createApplication(application)
    }
}
