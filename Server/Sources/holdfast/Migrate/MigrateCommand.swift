import ArgumentParser
import Foundation
import HoldfastProtocol
import HoldfastServer

/// `holdfast migrate` — applies pending schema migrations to the configured database (HOLDFAST_DATABASE_URL,
/// or the SQLite file in the data folder) and prints what it applied as JSON. `serve` does the same on start.
struct MigrateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "migrate",
        abstract: "Apply pending database migrations.")

    @Option(name: .customLong("data"), help: "Data folder (HOLDFAST_DATA, default ./holdfast-data).")
    var dataDirectory: String?

    struct Output: Encodable {
        struct Applied: Encodable {
            var version: Int
            var name: String
        }

        var database: String
        var applied: [Applied]
    }

    func run() async throws {
        let configuration = try HoldfastConfiguration.fromEnvironment(dataDirectory: dataDirectory)
        let logger = Console.logger(configuration)
        let applied = try await HoldfastApplication.migrate(configuration: configuration, now: CommandRun.system().now(), logger: logger)
        try Console.json(Output(database: HoldfastConfiguration.describe(configuration.database),
                                applied: applied.map { .init(version: $0.version, name: $0.name) }))
    }
}
