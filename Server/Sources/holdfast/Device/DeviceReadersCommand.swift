import ArgumentParser
import HoldfastProtocol
import HoldfastSDK
import JOSE

/// `holdfast device --state DIR readers add|list|remove` (docs/command-line.md "The `holdfast` command"): the reader CA
/// certificates the simulated device trusts.
struct DeviceReaders: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "readers", abstract: "The trusted reader CA certificates (ISO/IEC 18013-5 reader authentication, §9.1.4).",
        subcommands: [Add.self, List.self, Remove.self])

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Trust the certificates of a PEM file (@file) or PEM text.")
        @OptionGroup var options: DeviceOptions
        @Argument(help: "@path/to/reader-ca.pem, or the PEM text itself.") var pem: String

        func run() async throws {
            try await DeviceCredentialOutput.run("readers add") { () async throws(HoldfastError) in
                let text = try DeviceIssuers.Add.pemText(pem)
                return DeviceCredentialOutput.json(try await DeviceCredentialOutput.holder(options, needsTethering: false)
                    .addTrustedReaderCertificates([text]))
            }
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List the trusted reader certificates (JSON).")
        @OptionGroup var options: DeviceOptions

        func run() async throws {
            try await DeviceCredentialOutput.run("readers list") { () async throws(HoldfastError) in
                DeviceCredentialOutput.json(try await DeviceCredentialOutput.holder(options, needsTethering: false).getTrustedReaderCertificates())
            }
        }
    }

    struct Remove: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Stop trusting a reader certificate.")
        @OptionGroup var options: DeviceOptions
        @Argument(help: "The certificate id (readers list).") var id: String

        func run() async throws {
            try await DeviceCredentialOutput.run("readers remove") { () async throws(HoldfastError) in
                try await DeviceCredentialOutput.holder(options, needsTethering: false).removeTrustedReaderCertificate(id: id)
                return DeviceCredentialOutput.json(["ok": JSONValue.bool(true), "removed": .string(id)])
            }
        }
    }
}
