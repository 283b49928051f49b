import ArgumentParser
import Foundation
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
        let database = try await HoldfastApplication.openMigratedDatabase(configuration: configuration, logger: logger)
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

/// `holdfast admin keys create --name N [--scope admin|verifier] | list | revoke ID`, printing JSON.
struct KeysCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "keys",
        abstract: "Admin API keys.",
        subcommands: [Create.self, List.self, Revoke.self])

    struct Create: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Create an admin API key; the key is printed once.")

        @OptionGroup var storage: AdminStorageOptions
        @Option(help: "A name for the key (1–100 characters).")
        var name: String
        @Option(help: "admin (the whole admin API, the default), verifier (only presentation sessions and their results) or sca (only SCA proof verification).")
        var scope: AdminKey.Scope = .admin

        func run() async throws {
            let name = self.name, scope = self.scope
            let created = try await storage.withAdminKeys { try await $0.create(name: name, scope: scope) }
            try Console.json(created)
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List admin API keys (never their secrets).")

        @OptionGroup var storage: AdminStorageOptions

        func run() async throws {
            let keys = try await storage.withAdminKeys { service in
                var all: [AdminKey] = []
                var cursor: String?
                repeat {
                    let page = try await service.list(limit: AdminKeyService.maximumPageSize, after: cursor)
                    all += page.keys
                    cursor = page.nextCursor
                } while cursor != nil
                return all
            }
            try Console.json(["keys": keys])
        }
    }

    struct Revoke: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Revoke an admin API key by id.")

        @OptionGroup var storage: AdminStorageOptions
        @Argument(help: "The key id (the part after hfk_ and before the second _).")
        var id: String

        func run() async throws {
            let id = self.id
            let revoked = try await storage.withAdminKeys { try await $0.revoke(id: id, actingKeyID: nil) }
            try Console.json(revoked)
        }
    }
}

/// Output for people and scripts: lines flushed at once (so a supervisor reading a pipe sees the bootstrap
/// key line immediately) and JSON documents.
enum Console {
    static func line(_ text: String) {
        FileHandle.standardOutput.write(Data((text + "\n").utf8))
    }

    static func json(_ value: some Encodable) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        line(String(decoding: try encoder.encode(value), as: UTF8.self))
    }

    /// Tools log warnings and errors only, on standard error, in the configured format.
    static func logger(_ configuration: HoldfastConfiguration) -> Logger {
        var quiet = configuration
        if quiet.logLevel < .warning { quiet.logLevel = .warning }
        return HoldfastLogging.logger(quiet, label: "holdfast.cli")
    }
}

extension AdminKey.Scope: ExpressibleByArgument {}
