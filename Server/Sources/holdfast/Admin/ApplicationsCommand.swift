import ArgumentParser
import HoldfastAdmin
import HoldfastProtocol
import HoldfastServer

/// `holdfast admin applications create <JSON|@file.json|-> | list | get ID | delete ID` (docs/server-api.md "API"), printing JSON. The same
/// service and validation as `POST/GET/DELETE /v1/holder/applications`.
struct ApplicationsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "applications",
        abstract: "Holder applications (iOS and Android apps tethered to this tenant).",
        subcommands: [Create.self, List.self, Get.self, Delete.self])

    struct Create: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Create a holder application from its JSON (as POST \(TetheringRoutes.Template.applications) takes it).")

        @OptionGroup var storage: AdminStorageOptions
        @OptionGroup var document: JSONDocumentOptions

        func run() async throws {
            // Every invalid field with its JSON path, as the API answers (docs/server-api.md "API").
            let request = try document.input.decode(HolderApplication.self, what: "holder application")
            let created = try await storage.withAdminServices { services in
                // With the master key: a Play Integrity decryption key is sealed as the server seals it.
                try await services.sealingApplications().create(request, now: services.now())
            }
            try Console.json(created)
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List every holder application.")

        @OptionGroup var storage: AdminStorageOptions

        func run() async throws {
            let all = try await storage.withAdminServices { services in
                let service = services.tethering.applications
                var applications: [HolderApplication] = []
                var cursor: String?
                repeat {
                    let page = try await service.list(limit: 500, cursor: cursor)
                    applications += page.data
                    cursor = page.nextCursor
                } while cursor != nil
                return applications
            }
            try Console.json(HolderApplicationPage(data: all, nextCursor: nil))
        }
    }

    struct Get: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Show one holder application.")

        @OptionGroup var storage: AdminStorageOptions
        @Argument(help: "The application id.")
        var id: String

        func run() async throws {
            let id = self.id
            let application = try await storage.withAdminServices { try await $0.tethering.applications.get(id: id) }
            try Console.json(application)
        }
    }

    struct Delete: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Delete a holder application; every instance of it is revoked at once.")

        @OptionGroup var storage: AdminStorageOptions
        @Argument(help: "The application id.")
        var id: String

        func run() async throws {
            let id = self.id
            try await storage.withAdminServices { try await $0.tethering.applications.delete(id: id, now: $0.now()) }
            try Console.json(["deleted": id])
        }
    }
}
