import ArgumentParser
import HoldfastAdmin
import HoldfastServer

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
            let created = try await storage.withAdminServices { try await $0.adminKeys.create(name: name, scope: scope, now: $0.now()) }
            try Console.json(created)
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List admin API keys (never their secrets).")

        @OptionGroup var storage: AdminStorageOptions

        func run() async throws {
            let keys = try await storage.withAdminServices { services in
                let service = services.adminKeys
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
            let revoked = try await storage.withAdminServices { try await $0.adminKeys.revoke(id: id, actingKeyID: nil, now: $0.now()) }
            try Console.json(revoked)
        }
    }
}

extension AdminKey.Scope: ExpressibleByArgument {}
