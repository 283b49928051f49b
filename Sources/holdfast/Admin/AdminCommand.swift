import ArgumentParser
import Foundation
import HoldfastProtocol
import HoldfastServer
import Logging

/// `holdfast admin …` — administration working directly on the configured database, for an operator on the
/// box (no HTTP, no admin key needed): `keys`, `applications`, `instances`, `credentials`, `presentations`, `sca`.
struct AdminCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "admin",
        abstract: "Administer the tenant directly on its database.",
        subcommands: [KeysCommand.self, ApplicationsCommand.self, InstancesCommand.self, CredentialsCommand.self,
                      PresentationsCommand.self, SCACommand.self])
}

/// The storage flags every `admin` subcommand takes.
struct AdminStorageOptions: ParsableArguments {
    @Option(name: .customLong("data"), help: "Data folder (HOLDFAST_DATA, default ./holdfast-data).")
    var dataDirectory: String?

    /// Opens the migrated database, runs `body` with the admin key service, closes the database.
    func withAdminKeys<T: Sendable>(_ body: @Sendable (AdminKeyService) async throws -> T) async throws -> T {
        try await withDatabase { database, logger in try await body(AdminKeyService(database: database, logger: logger)) }
    }

    /// Opens the migrated database, runs `body` with it, closes it.
    func withDatabase<T: Sendable>(_ body: @Sendable (HoldfastDatabase, Logger) async throws -> T) async throws -> T {
        let configuration = try HoldfastConfiguration.fromEnvironment(dataDirectory: dataDirectory)
        let logger = Console.logger(configuration)
        let database = try await HoldfastApplication.openMigratedDatabase(configuration: configuration, now: SystemClock().now(),
                                                                          logger: logger)
        do {
            let result = try await body(database, logger)
            await database.close()
            return result
        } catch {
            await database.close()
            throw error
        }
    }
}
