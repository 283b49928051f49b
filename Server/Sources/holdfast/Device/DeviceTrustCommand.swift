import ArgumentParser
import HoldfastProtocol
import HoldfastSDK
import JOSE

/// The sets of CA certificates the simulated device trusts: the reader CAs of ISO/IEC 18013-5 reader authentication
/// (§9.1.4) and the CAs of verifiers' request-signing certificates.
enum DeviceTrustedSet: String, Sendable {
    case readers, verifiers

    var abstract: String {
        switch self {
        case .readers: "The trusted reader CA certificates (ISO/IEC 18013-5 reader authentication, §9.1.4)."
        case .verifiers: "The trusted verifier certificates (the CAs of request-signing certificates)."
        }
    }

    /// Who the certificates are of, in help texts: `reader` or `verifier`.
    var holderName: String { String(rawValue.dropLast()) }

    /// The subcommands of a set.
    enum Subcommand: String, Sendable {
        case add, list, remove
    }

    /// What a subcommand does with the set.
    enum Operation: Sendable {
        case add(pem: String)
        case list
        case remove(id: String)

        var subcommand: Subcommand {
            switch self {
            case .add: .add
            case .list: .list
            case .remove: .remove
            }
        }
    }

    func configuration(_ subcommand: Subcommand) -> CommandConfiguration {
        let abstract = switch subcommand {
        case .add: "Trust the certificates of a PEM file (@file) or PEM text."
        case .list: "List the trusted \(holderName) certificates (JSON)."
        case .remove: "Stop trusting a \(holderName) certificate."
        }
        return CommandConfiguration(commandName: subcommand.rawValue, abstract: abstract)
    }

    /// Runs `operation` on the state of `options` and prints its JSON: the certificates added, the set, or what was
    /// removed (`DeviceCredentialOutput.run`: a failure is the command's one failure).
    func perform(_ operation: Operation, options: DeviceOptions) async throws {
        try await DeviceCredentialOutput.run("\(rawValue) \(operation.subcommand.rawValue)") { () async throws(HoldfastError) in
            switch operation {
            case .add(let pem):
                let text = try DeviceIssuers.Add.pemText(pem)
                let holder = try await DeviceCredentialOutput.holder(options, needsTethering: false)
                return switch self {
                case .readers: DeviceCredentialOutput.json(try await holder.addTrustedReaderCertificates([text]))
                case .verifiers: DeviceCredentialOutput.json(try await holder.addTrustedVerifierCertificates([text]))
                }
            case .list:
                let holder = try await DeviceCredentialOutput.holder(options, needsTethering: false)
                return switch self {
                case .readers: DeviceCredentialOutput.json(try await holder.getTrustedReaderCertificates())
                case .verifiers: DeviceCredentialOutput.json(try await holder.getTrustedVerifierCertificates())
                }
            case .remove(let id):
                let holder = try await DeviceCredentialOutput.holder(options, needsTethering: false)
                switch self {
                case .readers: try await holder.removeTrustedReaderCertificate(id: id)
                case .verifiers: try await holder.removeTrustedVerifierCertificate(id: id)
                }
                return DeviceCredentialOutput.json(["ok": JSONValue.bool(true), "removed": .string(id)])
            }
        }
    }
}

/// What names one of the sets as a type, so that each is a subcommand of its own.
protocol DeviceTrustedSetName {
    static var set: DeviceTrustedSet { get }
}

/// `holdfast device --state DIR readers|verifiers add|list|remove` (docs/command-line.md "The `holdfast` command"): the
/// certificates of one trusted set, as JSON.
struct DeviceTrustCommand<Name: DeviceTrustedSetName>: AsyncParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(commandName: Name.set.rawValue, abstract: Name.set.abstract, subcommands: [Add.self, List.self, Remove.self])
    }

    struct Add: AsyncParsableCommand {
        @OptionGroup var options: DeviceOptions
        @Argument(help: ArgumentHelp("@path/to/\(Name.set.holderName)-ca.pem, or the PEM text itself.")) var pem: String
        func run() async throws { try await Name.set.perform(.add(pem: pem), options: options) }
    }

    struct List: AsyncParsableCommand {
        @OptionGroup var options: DeviceOptions
        func run() async throws { try await Name.set.perform(.list, options: options) }
    }

    struct Remove: AsyncParsableCommand {
        @OptionGroup var options: DeviceOptions
        @Argument(help: ArgumentHelp("The certificate id (\(Name.set.rawValue) list).")) var id: String
        func run() async throws { try await Name.set.perform(.remove(id: id), options: options) }
    }
}

extension DeviceTrustCommand.Add { static var configuration: CommandConfiguration { Name.set.configuration(.add) } }
extension DeviceTrustCommand.List { static var configuration: CommandConfiguration { Name.set.configuration(.list) } }
extension DeviceTrustCommand.Remove { static var configuration: CommandConfiguration { Name.set.configuration(.remove) } }

/// `holdfast device readers …`.
enum DeviceReaderSet: DeviceTrustedSetName { static let set = DeviceTrustedSet.readers }
typealias DeviceReaders = DeviceTrustCommand<DeviceReaderSet>

/// `holdfast device verifiers …`.
enum DeviceVerifierSet: DeviceTrustedSetName { static let set = DeviceTrustedSet.verifiers }
typealias DeviceVerifiers = DeviceTrustCommand<DeviceVerifierSet>
