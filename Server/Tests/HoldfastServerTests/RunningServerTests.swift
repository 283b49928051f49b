import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
@testable import HoldfastServer
import Testing

/// `HoldfastApplication.withRunningServer`: a real listener on a free port, for end-to-end tests and the demo.
@Suite struct RunningServerTests {
    @Test(arguments: StorageBackend.available)
    func serverListensOnAFreePortAndAnswersOverHTTP(_ backend: StorageBackend) async throws {
        try await backend.withConfiguration { configuration in
            try await HoldfastApplication.withRunningServer(configuration: configuration, logger: StorageBackend.quietLogger) { server in
                #expect(server.port > 0)
                let url = try #require(URL(string: "\(server.baseURL)/health"))
                let (data, response) = try await URLSession.shared.data(from: url)
                #expect((response as? HTTPURLResponse)?.statusCode == 200)
                #expect(try JSONDecoder().decode(HealthStatus.self, from: data).status == "ok")
                #expect(server.startup.bootstrapAdminKey != nil)
            }
        }
    }
}
