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

/// The storage flags every `admin` subcommand takes. An admin command works on an existing tenant only: a data
/// folder or database that holds none is refused (`TENANT_NOT_FOUND`, exit 65) and left as it was.
struct AdminStorageOptions: ParsableArguments {
    @Option(name: .customLong("data"),
            help: "The data folder holdfast serve uses (HOLDFAST_DATA, default ./holdfast-data); HOLDFAST_DATABASE_URL for PostgreSQL.")
    var dataDirectory: String?

    /// Opens the migrated database, runs `body` with the admin key service, closes the database.
    func withAdminKeys<T: Sendable>(_ body: @Sendable (AdminKeyService) async throws -> T) async throws -> T {
        try await withDatabase { database, logger in try await body(AdminKeyService(database: database, logger: logger, random: SystemRandomSource())) }
    }

    /// Opens the tenant's database (migrated), runs `body` with it, closes it.
    func withDatabase<T: Sendable>(_ body: @Sendable (HoldfastDatabase, Logger) async throws -> T) async throws -> T {
        let configuration = try HoldfastConfiguration.fromEnvironment(dataDirectory: dataDirectory)
        let logger = Console.logger(configuration)
        let database: HoldfastDatabase
        do {
            database = try await HoldfastApplication.openTenantDatabase(configuration: configuration, now: SystemClock().now(),
                                                                            logger: logger)
        } catch let error as TenantNotFoundError {
            throw Self.failure(error, configuration: configuration)
        }
        do {
            let result = try await body(database, logger)
            await database.close()
            return result
        } catch {
            await database.close()
            throw error
        }
    }

    /// What the one line says: where no tenant was found and how to point at the right one.
    static func failure(_ error: TenantNotFoundError, configuration: HoldfastConfiguration) -> CommandFailure {
        let hint = switch configuration.database {
        case .sqlite: "give --data the folder holdfast serve uses (or set HOLDFAST_DATABASE_URL to its PostgreSQL database)"
        case .postgres: "set HOLDFAST_DATABASE_URL to the database holdfast serve uses"
        }
        return CommandFailure(.dataError, "\(error.description): \(hint); holdfast serve or holdfast migrate makes a new tenant",
                              code: TenantNotFoundError.code)
    }
}
