import ArgumentParser
import HoldfastAdmin
import HoldfastProtocol
import HoldfastServer

/// `holdfast admin instances list --application ID | delete --application ID INSTANCE_ID` (docs/server-api.md "API").
struct InstancesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "instances",
        abstract: "Registered app instances.",
        subcommands: [List.self, Delete.self])

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List the live instances of an application.")

        @OptionGroup var storage: AdminStorageOptions
        @Option(help: "The application id.")
        var application: String

        func run() async throws {
            let applicationId = application
            let all = try await storage.withAdminServices { services in
                let service = services.tethering.instances
                var instances: [InstanceListItem] = []
                var cursor: String?
                repeat {
                    let page = try await service.list(applicationId: applicationId, limit: 500, cursor: cursor)
                    instances += page.data
                    cursor = page.nextCursor
                } while cursor != nil
                return instances
            }
            try Console.json(InstancePage(data: all, nextCursor: nil))
        }
    }

    struct Delete: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Revoke an instance: every token and DPoP proof of it is refused from now on.")

        @OptionGroup var storage: AdminStorageOptions
        @Option(help: "The application id.")
        var application: String
        @Argument(help: "The instance id.")
        var instance: String

        func run() async throws {
            let (applicationId, instanceId) = (application, instance)
            try await storage.withAdminServices {
                try await $0.tethering.instances.delete(applicationId: applicationId, instanceId: instanceId, now: $0.now())
            }
            try Console.json(["revoked": instanceId])
        }
    }
}
