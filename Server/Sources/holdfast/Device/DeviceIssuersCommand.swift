import ArgumentParser
import HoldfastProtocol
import HoldfastSDK
import JOSE

/// `holdfast device --state DIR issuers add|list|remove` (docs/command-line.md "The `holdfast` command"): the IACA certificates
/// the simulated device trusts.
struct DeviceIssuers: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "issuers", abstract: "The trusted issuer certificates (IACAs).", subcommands: [Add.self, List.self, Remove.self])

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Trust the certificates of a PEM file (@file) or PEM text.")
        @OptionGroup var options: DeviceOptions
        @Argument(help: "@path/to/iaca.pem, or the PEM text itself.") var pem: String

        func run() async throws {
            try await DeviceCredentialOutput.run("issuers add") { () async throws(HoldfastError) in try await Self.output(options, pem: pem) }
        }

        static func output(_ options: some DeviceSettings, pem: String) async throws(HoldfastError) -> String {
            DeviceCredentialOutput.json(try await DeviceCredentialOutput.holder(options, needsTethering: false)
                .addTrustedIssuerCertificates([try pemText(pem)]))
        }

        /// `@file` read, or the text itself.
        static func pemText(_ argument: String) throws(HoldfastError) -> String {
            guard argument.hasPrefix("@") else { return argument }
            guard let contents = try? String(contentsOfFile: String(argument.dropFirst()), encoding: .utf8) else {
                throw HoldfastError(.validationFailed, "cannot read \(argument.dropFirst())")
            }
            return contents
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List the trusted issuer certificates (JSON).")
        @OptionGroup var options: DeviceOptions

        func run() async throws {
            try await DeviceCredentialOutput.run("issuers list") { () async throws(HoldfastError) in
                DeviceCredentialOutput.json(try await DeviceCredentialOutput.holder(options, needsTethering: false).getTrustedIssuerCertificates())
            }
        }
    }

    struct Remove: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Stop trusting a certificate.")
        @OptionGroup var options: DeviceOptions
        @Argument(help: "The certificate id (issuers list).") var id: String

        func run() async throws {
            try await DeviceCredentialOutput.run("issuers remove") { () async throws(HoldfastError) in
                try await DeviceCredentialOutput.holder(options, needsTethering: false).removeTrustedIssuerCertificate(id: id)
                return DeviceCredentialOutput.json(["ok": JSONValue.bool(true), "removed": .string(id)])
            }
        }
    }
}
