@testable import HoldfastServer

/// Services without an application, for tests that look at the route table or the keyring directly.
enum TestServices {
    static func make(_ configuration: HoldfastConfiguration) async throws -> ServerServices {
        let (services, _, shutdown) = try await HoldfastApplication.makeServices(
            configuration: configuration, options: .init(logger: StorageBackend.quietLogger))
        await shutdown()
        return services
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
