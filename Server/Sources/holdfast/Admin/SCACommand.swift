import ArgumentParser
import Foundation
import HoldfastAdmin
import HoldfastProtocol
import HoldfastServer

/// `holdfast admin sca wallets …`, `holdfast admin sca policies set <JSON|@file.json|->` and `holdfast admin sca
/// eligibility get | set <JSON|@file.json|-> | denial REF` (docs/server-api.md "SCA wallet (back end)"), directly on the configured
/// database; each prints the API's JSON.
struct SCACommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sca", abstract: "The SCA wallet's back end: wallets, operation signing policies, device eligibility.",
        subcommands: [Wallets.self, Policies.self, Eligibility.self])

    struct Wallets: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "wallets", abstract: "SCA wallets.",
            subcommands: [Create.self, Get.self, List.self, Lock.self, Unlock.self, Reset.self, Delete.self])
    }

    struct Create: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "A wallet for a user: prints {walletId, activationCode, activationExpiresAt} (the code is shown once).")
        @OptionGroup var storage: AdminStorageOptions
        @Option(name: .customLong("application"), help: "The holder application id.") var applicationId: String
        @Option(name: .customLong("user"), help: "The bank's reference of its user.") var userId: String
        @Option(help: "How the wallet is protected (default: pin).") var protection: SCAAccessProtection?
        @Option(name: .customLong("max-pin-attempts"), help: "Wrong PINs in a row that lock the wallet (1–10, default 3).")
        var maxPinAttempts: Int?

        func run() async throws {
            let request = SCAWalletCreateRequest(applicationId: applicationId, userId: userId,
                                                 settings: SCAWalletSettings(accessProtection: protection, maxPinAttempts: maxPinAttempts))
            try Console.json(try await storage.withAdminServices { try await $0.sca.create(request, now: $0.now()) })
        }
    }

    struct Get: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "One wallet.")
        @OptionGroup var storage: AdminStorageOptions
        @Argument(help: "The wallet id.") var walletId: String

        func run() async throws {
            let id = walletId
            try Console.json(try await storage.withAdminServices { try await $0.sca.wallet(id: id) })
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "The wallets of a user.")
        @OptionGroup var storage: AdminStorageOptions
        @Option(name: .customLong("user"), help: "The bank's reference of its user.") var userId: String

        func run() async throws {
            let user = userId
            try Console.json(try await storage.withAdminServices { try await $0.sca.wallets(userId: user) })
        }
    }

    struct Lock: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Locks a wallet.")
        @OptionGroup var storage: AdminStorageOptions
        @Argument(help: "The wallet id.") var walletId: String
        @Option(help: "Why the wallet is locked.") var reason: SCALockReason = .other

        func run() async throws {
            let id = walletId, reason = self.reason
            try Console.json(try await storage.withAdminServices { try await $0.sca.lock(id: id, reason: reason, now: $0.now()) })
        }
    }

    struct Unlock: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Unlocks a wallet; its PIN attempts are back to the maximum.")
        @OptionGroup var storage: AdminStorageOptions
        @Argument(help: "The wallet id.") var walletId: String

        func run() async throws {
            let id = walletId
            try Console.json(try await storage.withAdminServices { try await $0.sca.unlock(id: id, now: $0.now()) })
        }
    }

    struct Reset: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "The customer sets new credentials at the next connection.")
        @OptionGroup var storage: AdminStorageOptions
        @Argument(help: "The wallet id.") var walletId: String

        func run() async throws {
            let id = walletId
            try Console.json(try await storage.withAdminServices { try await $0.sca.resetCredentials(id: id, now: $0.now()) })
        }
    }

    struct Delete: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Deletes a wallet (kept as deleted; its device is told).")
        @OptionGroup var storage: AdminStorageOptions
        @Argument(help: "The wallet id.") var walletId: String

        func run() async throws {
            let id = walletId
            try Console.json(try await storage.withAdminServices { services in
                try await services.sca.delete(id: id, now: services.now())
                return try await services.sca.wallet(id: id)
            })
        }
    }

    struct Policies: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "policies", abstract: "Operation signing policies.",
                                                        subcommands: [Replace.self])

        struct Replace: AsyncParsableCommand {
            static let configuration = CommandConfiguration(commandName: "set",
                                                            abstract: "Replaces the policies with a JSON list: [{method, pathTemplate, signedFields, requiredPatterns}].")
            @OptionGroup var storage: AdminStorageOptions
            @OptionGroup var input: JSONDocumentOptions

            func run() async throws {
                let list = try input.input.decode([SCAPolicy].self, what: "list of policies [{method, pathTemplate, signedFields, requiredPatterns}]")
                try Console.json(try await storage.withAdminServices { try await $0.sca.replacePolicies(list, now: $0.now()) })
            }
        }
    }

    struct Eligibility: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "eligibility", abstract: "Device eligibility: blocked device models, minimum app versions, recorded denials.",
            subcommands: [Get.self, Replace.self, Denial.self])

        struct Get: AsyncParsableCommand {
            static let configuration = CommandConfiguration(commandName: "get", abstract: "Prints the eligibility rules.")
            @OptionGroup var storage: AdminStorageOptions

            func run() async throws {
                try Console.json(try await storage.withAdminServices { try await $0.sca.eligibilityRules() })
            }
        }

        struct Replace: AsyncParsableCommand {
            static let configuration = CommandConfiguration(commandName: "set",
                                                            abstract: "Replaces the eligibility rules with a JSON object: {blockedDeviceModels: [..], minimumAppVersions: [{applicationId?, version, sunsetAt?}]}.")
            @OptionGroup var storage: AdminStorageOptions
            @OptionGroup var input: JSONDocumentOptions

            func run() async throws {
                let rules = try input.input.decode(SCAEligibilityRules.self, what: "set of eligibility rules {blockedDeviceModels, minimumAppVersions}")
                try Console.json(try await storage.withAdminServices { try await $0.sca.replaceEligibilityRules(rules, now: $0.now()) })
            }
        }

        struct Denial: AsyncParsableCommand {
            static let configuration = CommandConfiguration(commandName: "denial", abstract: "Prints a recorded denial by its reference.")
            @OptionGroup var storage: AdminStorageOptions
            @Argument(help: "The reference the device showed (DEN-…).") var reference: String

            func run() async throws {
                try Console.json(try await storage.withAdminServices { try await $0.sca.eligibilityDenial(reference: reference) })
            }
        }
    }
}
