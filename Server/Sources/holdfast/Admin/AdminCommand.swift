import ArgumentParser
import Foundation
import HoldfastProtocol
import HoldfastServer

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

    /// Opens the tenant's services once for the run (`AdminServices`: the migrated database, the clock, the random
    /// source), runs `body` with them, closes the database.
    func withAdminServices<T: Sendable>(_ body: @Sendable (AdminServices) async throws -> T) async throws -> T {
        let configuration = try HoldfastConfiguration.fromEnvironment(dataDirectory: dataDirectory)
        let run = CommandRun.system()
        let services: AdminServices
        do {
            services = try await AdminServices.open(configuration: configuration, clock: run.clock, random: run.random,
                                                    logger: Console.logger(configuration))
        } catch let error as TenantNotFoundError {
            throw Self.failure(error, configuration: configuration)
        }
        do {
            let result = try await body(services)
            await services.close()
            return result
        } catch {
            await services.close()
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
