import ArgumentParser
import HoldfastProtocol
import HoldfastSDK
import JOSE

/// A set of CA certificates the simulated device trusts, and the holder's calls on it: the reader CAs of ISO/IEC
/// 18013-5 reader authentication (§9.1.4, `DeviceReaderTrust`) or the CAs of verifiers' request-signing certificates
/// (`DeviceVerifierTrust`).
protocol DeviceTrustedCertificates: Sendable {
    associatedtype Certificate: Encodable, Sendable
    /// The subcommand: `readers` or `verifiers`.
    static var commandName: String { get }
    static var abstract: String { get }
    /// Who the certificates are of, in help texts: `reader` or `verifier`.
    static var holderName: String { get }
    static var pemFileExample: String { get }

    static func add(_ pems: [String], to holder: MobileCredentialHolder) async throws(HoldfastError) -> [Certificate]
    static func list(of holder: MobileCredentialHolder) async throws(HoldfastError) -> [Certificate]
    static func remove(id: String, from holder: MobileCredentialHolder) async throws(HoldfastError)
}

/// `holdfast device --state DIR readers|verifiers add|list|remove` (docs/command-line.md "The `holdfast` command"): the
/// certificates of one trusted set, as JSON.
struct DeviceTrustCommand<Trust: DeviceTrustedCertificates>: AsyncParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(commandName: Trust.commandName, abstract: Trust.abstract, subcommands: [Add.self, List.self, Remove.self])
    }

    struct Add: AsyncParsableCommand {
        static var configuration: CommandConfiguration {
            CommandConfiguration(commandName: "add", abstract: "Trust the certificates of a PEM file (@file) or PEM text.")
        }
        @OptionGroup var options: DeviceOptions
        @Argument(help: ArgumentHelp("@path/to/\(Trust.pemFileExample), or the PEM text itself.")) var pem: String

        func run() async throws {
            try await DeviceCredentialOutput.run("\(Trust.commandName) add") { () async throws(HoldfastError) in
                let text = try DeviceIssuers.Add.pemText(pem)
                return DeviceCredentialOutput.json(try await Trust.add([text], to: DeviceCredentialOutput.holder(options, needsTethering: false)))
            }
        }
    }

    struct List: AsyncParsableCommand {
        static var configuration: CommandConfiguration {
            CommandConfiguration(commandName: "list", abstract: "List the trusted \(Trust.holderName) certificates (JSON).")
        }
        @OptionGroup var options: DeviceOptions

        func run() async throws {
            try await DeviceCredentialOutput.run("\(Trust.commandName) list") { () async throws(HoldfastError) in
                DeviceCredentialOutput.json(try await Trust.list(of: DeviceCredentialOutput.holder(options, needsTethering: false)))
            }
        }
    }

    struct Remove: AsyncParsableCommand {
        static var configuration: CommandConfiguration {
            CommandConfiguration(commandName: "remove", abstract: "Stop trusting a \(Trust.holderName) certificate.")
        }
        @OptionGroup var options: DeviceOptions
        @Argument(help: ArgumentHelp("The certificate id (\(Trust.commandName) list).")) var id: String

        func run() async throws {
            try await DeviceCredentialOutput.run("\(Trust.commandName) remove") { () async throws(HoldfastError) in
                try await Trust.remove(id: id, from: DeviceCredentialOutput.holder(options, needsTethering: false))
                return DeviceCredentialOutput.json(["ok": JSONValue.bool(true), "removed": .string(id)])
            }
        }
    }
}

/// `holdfast device readers …`: the reader CA certificates (ISO/IEC 18013-5 §9.1.4).
typealias DeviceReaders = DeviceTrustCommand<DeviceReaderTrust>
/// `holdfast device verifiers …`: the CAs of verifiers' request-signing certificates.
typealias DeviceVerifiers = DeviceTrustCommand<DeviceVerifierTrust>

enum DeviceReaderTrust: DeviceTrustedCertificates {
    static let commandName = "readers"
    static let abstract = "The trusted reader CA certificates (ISO/IEC 18013-5 reader authentication, §9.1.4)."
    static let holderName = "reader"
    static let pemFileExample = "reader-ca.pem"

    static func add(_ pems: [String], to holder: MobileCredentialHolder) async throws(HoldfastError) -> [TrustedReaderCertificate] {
        try await holder.addTrustedReaderCertificates(pems)
    }

    static func list(of holder: MobileCredentialHolder) async throws(HoldfastError) -> [TrustedReaderCertificate] {
        try await holder.getTrustedReaderCertificates()
    }

    static func remove(id: String, from holder: MobileCredentialHolder) async throws(HoldfastError) {
        try await holder.removeTrustedReaderCertificate(id: id)
    }
}

enum DeviceVerifierTrust: DeviceTrustedCertificates {
    static let commandName = "verifiers"
    static let abstract = "The trusted verifier certificates (the CAs of request-signing certificates)."
    static let holderName = "verifier"
    static let pemFileExample = "verifier-ca.pem"

    static func add(_ pems: [String], to holder: MobileCredentialHolder) async throws(HoldfastError) -> [TrustedVerifierCertificate] {
        try await holder.addTrustedVerifierCertificates(pems)
    }

    static func list(of holder: MobileCredentialHolder) async throws(HoldfastError) -> [TrustedVerifierCertificate] {
        try await holder.getTrustedVerifierCertificates()
    }

    static func remove(id: String, from holder: MobileCredentialHolder) async throws(HoldfastError) {
        try await holder.removeTrustedVerifierCertificate(id: id)
    }
}
