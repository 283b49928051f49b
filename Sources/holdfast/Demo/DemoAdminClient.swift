import Foundation
import HoldfastProtocol
import HoldfastSDK
import JOSE

/// The tenant's admin API over HTTP with the bootstrap admin key, as an operator's script would call it.
struct DemoAdminClient: Sendable {
    let baseURL: String
    let adminKey: String
    let transport: any HTTPTransport

    func createApplication(_ application: HolderApplication) async throws -> HolderApplication {
        let response = try await send("POST", TetheringRoutes.applications, body: try HoldfastJSON.encode(application))
        return try decode(HolderApplication.self, response, expecting: 201)
    }

    func instances(applicationId: String) async throws -> InstancePage {
        let response = try await send("GET", TetheringRoutes.instances(applicationId: applicationId))
        return try decode(InstancePage.self, response, expecting: 200)
    }

    func deleteInstance(applicationId: String, instanceId: String) async throws {
        let response = try await send("DELETE", TetheringRoutes.instance(applicationId: applicationId, instanceId: instanceId))
        guard response.status == 204 else { throw Self.failure(response, expecting: 204) }
    }

    /// `GET /.well-known/jwks.json` (no admin key: it is public).
    func jwks() async throws -> JWKSet {
        let response = try await send("GET", "/.well-known/jwks.json", authenticated: false)
        guard response.status == 200 else { throw Self.failure(response, expecting: 200) }
        return try JSONDecoder().decode(JWKSet.self, from: response.body)
    }

    private func send(_ method: String, _ path: String, body: Data? = nil, authenticated: Bool = true) async throws -> TransportResponse {
        guard let url = URL(string: baseURL + path) else { throw DemoStepFailure("cannot form a URL from \(path)") }
        var request = TransportRequest(method: method, url: url, body: body)
        if authenticated { request.setHeader("Authorization", "Bearer \(adminKey)") }
        if body != nil { request.setHeader(HoldfastHeaders.contentType, HoldfastHeaders.jsonMediaType) }
        return try await transport.send(request)
    }

    private func decode<T: Decodable>(_ type: T.Type, _ response: TransportResponse, expecting status: Int) throws -> T {
        guard response.status == status else { throw Self.failure(response, expecting: status) }
        return try HoldfastJSON.decode(type, from: response.body)
    }

    private static func failure(_ response: TransportResponse, expecting status: Int) -> DemoStepFailure {
        let problem = try? HoldfastJSON.decode(ProblemDetails.self, from: response.body)
        return DemoStepFailure("expected HTTP \(status), got \(response.status) \(problem?.code?.rawValue ?? "") \(problem?.detail ?? "")")
    }
}
