import Attestation
import Foundation
import HoldfastAdmin
import Hummingbird
import HummingbirdTesting
@testable import HoldfastServer
import Testing

/// `/health`, `/metrics`, `/openapi.json` (DESIGN.md §4 "Observability").
@Suite struct OperationalRouteTests {
    @Test(arguments: StorageBackend.available)
    func healthReportsDatabaseAndEphemeralStoreUp(_ backend: StorageBackend) async throws {
        try await withTestApp(backend) { client, _ in
            let response = try await client.execute(uri: "/health", method: .get)
            #expect(response.status == .ok)
            let health = try response.decode(HealthStatus.self)
            #expect(health.status == "ok")
            #expect(health.version == HoldfastServerInfo.version)
            #expect(health.database == .init(status: "up", backend: backend.rawValue))
            #expect(health.ephemeralStore == .init(status: "up", backend: "memory", fullParts: []))
            #expect(health.androidRevocationList == .init(source: "bundled",
                                                          entries: AttestationRevocationList.bundledSnapshot.entries.count,
                                                          loadedAt: nil, stale: false))
        }
    }

    @Test func healthIs503WhenTheEphemeralStoreIsDown() async throws {
        // Nothing listens on port 1: the Redis store is configured but unreachable.
        try await withTestApp(.sqlite, configure: { $0.ephemeral = .redis(url: "redis://127.0.0.1:1") }) { client, _ in
            let response = try await client.execute(uri: "/health", method: .get)
            #expect(response.status == .serviceUnavailable)
            let health = try response.decode(HealthStatus.self)
            #expect(health.status == "unavailable")
            #expect(health.ephemeralStore == .init(status: "down", backend: "redis", fullParts: []))
            #expect(health.database.status == "up")
        }
    }

    @Test func metricsCountRequestsByRouteAndStatusInPrometheusText() async throws {
        try await withTestApp(.sqlite) { client, startup in
            _ = try await client.execute(uri: "/health", method: .get)
            _ = try await client.execute(uri: "/no/such/route", method: .get)
            _ = try await client.execute(uri: AdminKeyRoutes.Template.key.path(["id": "0123456789abcdef01234567"]), method: .delete,
                                         headers: .bearer(startup.bootstrapAdminKey))
            let response = try await client.execute(uri: "/metrics", method: .get)
            #expect(response.status == .ok)
            #expect(response.headers[.contentType]?.hasPrefix("text/plain") == true)
            let text = response.text
            #expect(text.contains("# TYPE holdfast_http_requests_total counter"))
            #expect(text.contains(#"holdfast_http_requests_total{method="GET",route="/health",status="200"} 1"#))
            #expect(text.contains(#"holdfast_http_requests_total{method="GET",route="NotFound",status="404"} 1"#))
            #expect(text.contains(#"route="/v1/admin/keys/{id}",status="404""#))
            #expect(text.contains("holdfast_http_request_duration_seconds_bucket"))
        }
    }

    @Test func metricsOfOneApplicationDoNotLeakIntoAnother() async throws {
        try await withTestApp(.sqlite) { client, _ in
            _ = try await client.execute(uri: "/health", method: .get)
        }
        try await withTestApp(.sqlite) { client, _ in
            let text = try await client.execute(uri: "/metrics", method: .get).text
            #expect(!text.contains(#"route="/health""#))
        }
    }

    @Test func openAPIDocumentIsServedAsIs() async throws {
        try await withTestApp(.sqlite) { client, _ in
            let response = try await client.execute(uri: "/openapi.json", method: .get)
            #expect(response.status == .ok)
            #expect(response.headers[.contentType] == "application/json")
            #expect(Array(response.body.readableBytesView) == (try OpenAPIDocument.load()))
        }
    }
}
