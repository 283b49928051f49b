import ArgumentParser
import Foundation
import HoldfastAdmin
import HoldfastProtocol
import HoldfastServer
import JOSE

/// `holdfast admin credentials iacas | rotate-certificates [--iaca] | configurations … | offer … | list | status`
/// (docs/server-api.md "Credentials").
struct CredentialsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "credentials",
        abstract: "The mDoc issuer: its certificates, credential configurations, offers and issued credentials.",
        subcommands: [IACAs.self, RotateCertificates.self, Configurations.self, Offer.self, List.self, Status.self])

    struct Configurations: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "configurations", abstract: "Credential configurations: the mDocs the tenant issues.",
            subcommands: [Create.self, ListAll.self, Get.self, Delete.self])

        struct Create: AsyncParsableCommand {
            static let configuration = CommandConfiguration(
                abstract: "Create a configuration from JSON (docs/server-api.md \"Credentials\"): {\"id\"?, \"docType\", \"nameSpaces\"?, \"display\": {\"name\", …}, \"validForDays\"?, \"revocable\"?, \"clientAttestation\"?}.")
            @OptionGroup var storage: AdminStorageOptions
            @OptionGroup var document: JSONDocumentOptions
            @Option(name: .customLong("client-attestation"),
                    help: "Whether claiming needs a client (wallet) attestation; sets the document's clientAttestation (default required).")
            var clientAttestation: ClientAttestationRequirement?

            func run() async throws {
                var decoded = try document.input.decode(CredentialConfiguration.self, what: "credential configuration")
                if let clientAttestation { decoded.clientAttestation = clientAttestation }
                let request = decoded
                try Console.json(try await storage.withAdminServices {
                    try await $0.credentials().createConfiguration(request, now: $0.now())
                })
            }
        }

        struct ListAll: AsyncParsableCommand {
            static let configuration = CommandConfiguration(commandName: "list", abstract: "Every configuration, oldest first.")
            @OptionGroup var storage: AdminStorageOptions

            func run() async throws {
                try Console.json(try await storage.withAdminServices { try await $0.credentials().listConfigurations() })
            }
        }

        struct Get: AsyncParsableCommand {
            static let configuration = CommandConfiguration(abstract: "One configuration.")
            @OptionGroup var storage: AdminStorageOptions
            @Argument var id: String

            func run() async throws {
                let id = self.id
                try Console.json(try await storage.withAdminServices { try await $0.credentials().configuration(id: id) })
            }
        }

        struct Delete: AsyncParsableCommand {
            static let configuration = CommandConfiguration(
                abstract: "Delete a configuration: its offers can no longer be redeemed; issued credentials stay listed.")
            @OptionGroup var storage: AdminStorageOptions
            @Argument var id: String

            func run() async throws {
                let id = self.id
                try await storage.withAdminServices { try await $0.credentials().deleteConfiguration(id: id) }
                Console.line("deleted \(id)")
            }
        }
    }

    struct Offer: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Offer a credential: prints the offer URI (openid-credential-offer://…), with --qr also as a QR code on standard error.")
        @OptionGroup var storage: AdminStorageOptions
        @Option(name: .customLong("configuration"), help: "The configuration id.")
        var configurationId: String
        @Option(help: ArgumentHelp(#"Claim values {namespace: {element: value}}: the JSON, @file.json, or - for standard input."#,
                                   valueName: "json|@file|-"))
        var claims: JSONInput
        @Option(name: .customLong("tx-code-length"), help: "Require a transaction code of this many characters (4–12).")
        var txCodeLength: Int?
        @Option(name: .customLong("tx-code-input-mode"), help: "numeric (default) or text.")
        var txCodeInputMode: String?
        @Option(name: .customLong("expires-in"), help: "Seconds the offer can be redeemed (default 86400).")
        var expiresIn: Int?
        @Flag(help: "Also print the offer URI as a QR code for the terminal, on standard error.")
        var qr = false

        func run() async throws {
            var request = CredentialOfferRequest(
                configurationId: configurationId,
                claims: try claims.decode([String: [String: JSONValue]].self, what: "--claims value"),
                expiresInSeconds: expiresIn)
            if txCodeLength != nil || txCodeInputMode != nil {
                request.txCode = .init(length: txCodeLength, inputMode: txCodeInputMode.map { .init(rawValue: $0) })
            }
            let created = try await storage.withAdminServices { [request] in
                try await $0.credentials().createOffer(request, now: $0.now())
            }
            try Console.json(created)
            if qr {
                Console.errorLine(try TerminalQR.render(created.offerUri))
            }
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Issued credentials, oldest first (no claim values).")
        @OptionGroup var storage: AdminStorageOptions
        @Option(help: "Page size (1–500, default 50).") var limit: Int?
        @Option(help: "nextCursor of the previous page.") var cursor: String?

        func run() async throws {
            let (limit, cursor) = (self.limit, self.cursor)
            try Console.json(try await storage.withAdminServices { try await $0.credentials().listCredentials(limit: limit, cursor: cursor) })
        }
    }

    struct Status: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Revoke (final), suspend or reinstate an issued credential: holdfast admin credentials status ID revoked|suspended|valid.")
        @OptionGroup var storage: AdminStorageOptions
        @Argument(help: "The credential id.") var id: String
        @Argument(help: "The new status (revoked is final).") var status: IssuedCredentialStatus

        func run() async throws {
            let (id, status) = (self.id, self.status)
            try Console.json(try await storage.withAdminServices { try await $0.credentials().setStatus(credentialId: id, to: status) })
        }
    }

    struct IACAs: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "iacas",
            abstract: "Print the IACA certificates wallets and verifiers should trust as PEM, the active one first (--json: the JSON list).",
            discussion: "holdfast admin credentials iacas > iacas.pem; holdfast device --state DIR issuers add @iacas.pem")

        @OptionGroup var storage: AdminStorageOptions
        @OptionGroup var output: CertificateOutputOptions

        func run() async throws {
            let list = try await storage.withAdminServices { try await $0.iacas() }
            try output.print(list, pems: list.data.map(\.certificatePem))
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
            let newIACA = self.newIACA
            let list = try await storage.withAdminServices { try await $0.rotateIssuerCertificates(newIACA: newIACA) }
            try Console.json(list)
        }
    }
}
