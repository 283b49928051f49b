import ArgumentParser
import Foundation
import HoldfastProtocol
import HoldfastServer

/// `holdfast admin credentials iacas | rotate-certificates [--iaca]` (README "Credentials").
struct CredentialsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "credentials",
        abstract: "The mDoc issuer: its certificates.",
        subcommands: [IACAs.self, RotateCertificates.self])

    struct IACAs: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "iacas", abstract: "List the IACA certificates verifiers should trust (PEM), the active one first.")

        @OptionGroup var storage: AdminStorageOptions

        func run() async throws {
            let dataDirectory = storage.dataDirectory
            let list = try await storage.withDatabase { database, logger in
                try await IssuerCertificateAdmin.iacas(
                    configuration: try HoldfastConfiguration.fromEnvironment(dataDirectory: dataDirectory), database: database,
                    now: SystemClock().now(), logger: logger)
            }
            try Console.json(list)
        }
    }

    struct RotateCertificates: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "rotate-certificates",
            abstract: "New document and status list signers (and with --iaca a new IACA issuing them); "
                + "the old ones stay listed so that what they signed keeps verifying. Servers use them within a minute.")

        @OptionGroup var storage: AdminStorageOptions
        @Flag(name: .customLong("iaca"), help: "Also replace the IACA (publish the new one to verifiers first).")
        var newIACA = false

        func run() async throws {
            let (dataDirectory, newIACA) = (storage.dataDirectory, self.newIACA)
            let list = try await storage.withDatabase { database, logger in
                let configuration = try HoldfastConfiguration.fromEnvironment(dataDirectory: dataDirectory)
                let rotated = try await IssuerCertificateAdmin.rotate(configuration: configuration, database: database,
                                                                      newIACA: newIACA, now: SystemClock().now(), logger: logger)
                return IssuerCertificateAdmin.iacas(rotated)
            }
            try Console.json(list)
        }
    }
}
