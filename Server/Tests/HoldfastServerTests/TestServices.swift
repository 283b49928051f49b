@testable import HoldfastServer

/// Services without an application, for tests that look at the route table or the keyring directly.
enum TestServices {
    static func make(_ configuration: HoldfastConfiguration) async throws -> ServerServices {
        let (services, _, shutdown) = try await HoldfastApplication.makeServices(
            configuration: configuration, options: .init(logger: StorageBackend.quietLogger))
        await shutdown()
        return services
    }

    /// Runs `body` with services whose database is closed afterwards, also when `body` throws (an open
    /// PostgreSQL pool that is released without being shut down stops the test process).
    static func with<T: Sendable>(_ configuration: HoldfastConfiguration,
                                  _ body: (ServerServices) async throws -> T) async throws -> T {
        let services = try await make(configuration)
        do {
            let result = try await body(services)
            await services.database.close()
            return result
        } catch {
            await services.database.close()
            throw error
        }
    }
}

extension TestServices {
    /// Runs the start-up work once and closes everything again, like a server starting and stopping.
    static func startup(_ configuration: HoldfastConfiguration) async throws -> HoldfastApplication.StartupInfo {
        let (services, startup, shutdown) = try await HoldfastApplication.makeServices(
            configuration: configuration, options: .init(logger: StorageBackend.quietLogger))
        await shutdown()
        await services.database.close()
        return startup
    }
}
