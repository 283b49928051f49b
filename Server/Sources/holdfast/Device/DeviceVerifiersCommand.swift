import ArgumentParser
import HoldfastProtocol
import HoldfastSDK
import JOSE

/// `holdfast device --state DIR verifiers add|list|remove` (docs/command-line.md "The `holdfast` command"): the verifier CA
/// certificates the simulated device trusts.
struct DeviceVerifiers: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "verifiers", abstract: "The trusted verifier certificates (the CAs of request-signing certificates).",
        subcommands: [Add.self, List.self, Remove.self])

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Trust the certificates of a PEM file (@file) or PEM text.")
        @OptionGroup var options: DeviceOptions
        @Argument(help: "@path/to/verifier-ca.pem, or the PEM text itself.") var pem: String

        func run() async throws {
            try await DeviceCredentialOutput.run("verifiers add") { () async throws(HoldfastError) in
                let text = try DeviceIssuers.Add.pemText(pem)
                return DeviceCredentialOutput.json(try await DeviceCredentialOutput.holder(options, needsTethering: false)
                    .addTrustedVerifierCertificates([text]))
            }
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List the trusted verifier certificates (JSON).")
        @OptionGroup var options: DeviceOptions

        func run() async throws {
            try await DeviceCredentialOutput.run("verifiers list") { () async throws(HoldfastError) in
                DeviceCredentialOutput.json(try await DeviceCredentialOutput.holder(options, needsTethering: false).getTrustedVerifierCertificates())
            }
        }
    }

    struct Remove: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Stop trusting a verifier certificate.")
        @OptionGroup var options: DeviceOptions
        @Argument(help: "The certificate id (verifiers list).") var id: String

        func run() async throws {
            try await DeviceCredentialOutput.run("verifiers remove") { () async throws(HoldfastError) in
                try await DeviceCredentialOutput.holder(options, needsTethering: false).removeTrustedVerifierCertificate(id: id)
                return DeviceCredentialOutput.json(["ok": JSONValue.bool(true), "removed": .string(id)])
            }
        }
    }
}
