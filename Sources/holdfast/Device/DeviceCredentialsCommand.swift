import ArgumentParser
import Foundation
import HoldfastProtocol
import HoldfastSDK
import JOSE

/// `holdfast device --state DIR credentials list|get|delete` (README "The `holdfast` command"): the credentials
/// stored on the simulated device.
struct DeviceCredentials: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "credentials", abstract: "The stored credentials.", subcommands: [List.self, Get.self, Delete.self])

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List the stored credentials (no claim values).")
        @OptionGroup var options: DeviceOptions
        @Flag(help: "Print a JSON array of the credentials' metadata.") var json = false

        func run() async throws {
            try await DeviceCredentialOutput.run("credentials list") { () async throws(HoldfastError) in
                try await Self.output(options, json: json)
            }
        }

        static func output(_ options: some DeviceSettings, json: Bool) async throws(HoldfastError) -> String {
            let credentials = try await DeviceCredentialOutput.holder(options, needsTethering: false).getCredentials()
            if json { return DeviceCredentialOutput.json(credentials) }
            if credentials.isEmpty { return "no credentials" }
            return credentials.map { "\($0.id)  \($0.docType)" + ($0.branding.map { "  \($0.name)" } ?? "") }.joined(separator: "\n")
        }
    }

    struct Get: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Show a credential with its claims and its verification now (the status is checked; exit 0 whatever it is).")
        @OptionGroup var options: DeviceOptions
        @Argument(help: "The credential id.") var id: String
        @Flag(name: .customLong("skip-status-check"), help: "Do not go online for the status; the cached status list still applies.")
        var skipStatusCheck = false
        @Flag(help: "Print one JSON object.") var json = false

        func run() async throws {
            try await DeviceCredentialOutput.run("credentials get") { () async throws(HoldfastError) in
                try await Self.output(options, id: id, skipStatusCheck: skipStatusCheck, json: json)
            }
        }

        static func output(_ options: some DeviceSettings, id: String, skipStatusCheck: Bool, json: Bool) async throws(HoldfastError) -> String {
            let credential = try await DeviceCredentialOutput.holder(options, needsTethering: false)
                .getCredential(credentialId: id, skipStatusCheck: skipStatusCheck)
            return json ? DeviceCredentialOutput.json(DeviceCredentials.View(credential)) : DeviceCredentials.text(credential)
        }
    }

    struct Delete: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Delete a credential and its device key.")
        @OptionGroup var options: DeviceOptions
        @Argument(help: "The credential id.") var id: String

        func run() async throws {
            try await DeviceCredentialOutput.run("credentials delete") { () async throws(HoldfastError) in
                try await DeviceCredentialOutput.holder(options, needsTethering: false).deleteCredential(id: id)
                return DeviceCredentialOutput.json(["ok": JSONValue.bool(true), "deleted": .string(id)])
            }
        }
    }

    /// What `credentials get --json` prints.
    struct View: Encodable {
        var id: String
        var docType: String
        var claims: [String: [String: JSONValue]]
        var validityInfo: CredentialValidityInfo
        var verificationResult: CredentialVerificationResult
        var status: String?
        /// When the status was last established online (README "Holder: status").
        var statusCheckedAt: Date?
        var branding: CredentialBranding?
        var issuerInfo: CredentialIssuerInfo

        init(_ credential: MobileCredential) {
            id = credential.id
            docType = credential.docType
            claims = credential.claims
            validityInfo = credential.metadata.validityInfo
            verificationResult = credential.verificationResult
            status = credential.status.map(\.description)
            statusCheckedAt = credential.statusCheckedAt
            branding = credential.metadata.branding
            issuerInfo = credential.metadata.issuerInfo
        }
    }

    static func text(_ credential: MobileCredential) -> String {
        var lines = ["\(credential.id)  \(credential.docType)" + (credential.metadata.branding.map { "  (\($0.name))" } ?? "")]
        let result = credential.verificationResult
        lines.append("verified: \(result.verified ? "yes" : "no")" + (result.failureType.map { " — \($0.rawValue)" } ?? ""))
        let dates = ISO8601DateFormatter()
        if let status = credential.status {
            lines.append("status: \(status)" + (credential.statusCheckedAt.map { " (checked online \(dates.string(from: $0)))" } ?? ""))
        }
        lines.append("valid from \(dates.string(from: credential.metadata.validityInfo.validFrom)) until "
                     + dates.string(from: credential.metadata.validityInfo.validUntil))
        for space in credential.claims.keys.sorted() {
            lines.append(space)
            for (element, value) in (credential.claims[space] ?? [:]).sorted(by: { $0.key < $1.key }) {
                lines.append("  \(element): \(DeviceCredentialOutput.json(value))")
            }
        }
        return lines.joined(separator: "\n")
    }
}
