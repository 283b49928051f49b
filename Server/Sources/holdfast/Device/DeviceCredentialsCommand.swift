import ArgumentParser
import Foundation
import HoldfastProtocol
import HoldfastSDK
import JOSE

/// `holdfast device --state DIR credentials list|get|refresh-status|delete` (docs/command-line.md "The `holdfast` command"): the credentials
/// stored on the simulated device.
struct DeviceCredentials: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "credentials", abstract: "The stored credentials.", subcommands: [List.self, Get.self, RefreshStatus.self, Delete.self])

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
            return credentials.map { "\($0.id)  \($0.docType)" + ($0.branding.map { "  \($0.name)" } ?? "")
                + ($0.statusList.map { "  status list index \($0.idx)" } ?? "") }.joined(separator: "\n")
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

    /// docs/sdk.md "Holder: status": fetches the status list now rather than when the cached one's `ttl` passes; the fetched
    /// token is verified as every other one is.
    struct RefreshStatus: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "refresh-status",
            abstract: "Fetch the status list of a credential (every credential without an id) now, and show the status it gives.",
            discussion: """
                The fetched status list token is checked as always (signature and chain to the credential's IACA, sub, exp, \
                not older than the cached one); when it is refused or cannot be fetched, the cached one still applies and \
                the reason is shown. Exit 0 whatever the status is.
                """)
        @OptionGroup var options: DeviceOptions
        @Argument(help: "The credential id (every stored credential when omitted).") var id: String?
        @Flag(help: "Print JSON: one object for an id, an array otherwise.") var json = false

        func run() async throws {
            try await DeviceCredentialOutput.run("credentials refresh-status") { () async throws(HoldfastError) in
                try await Self.output(options, id: id, json: json)
            }
        }

        /// What `refresh-status --json` prints per credential: `credentials get --json` with the fetch's outcome.
        struct Refreshed: Encodable {
            var credential: View
            var fetched: Bool
            var failure: String?

            func encode(to encoder: any Encoder) throws {
                try credential.encode(to: encoder)
                var container = encoder.container(keyedBy: Keys.self)
                try container.encode(fetched, forKey: .fetched)
                try container.encodeIfPresent(failure, forKey: .fetchFailure)
            }

            enum Keys: String, CodingKey { case fetched, fetchFailure }
        }

        static func output(_ options: some DeviceSettings, id: String?, json: Bool) async throws(HoldfastError) -> String {
            let results = try await DeviceCredentialOutput.holder(options, needsTethering: false).refreshStatus(credentialId: id)
            if json {
                let views = results.map { Refreshed(credential: View($0.credential), fetched: $0.fetched, failure: $0.failure) }
                if id != nil, let only = views.first { return DeviceCredentialOutput.json(only) }
                return DeviceCredentialOutput.json(views)
            }
            if results.isEmpty { return "no credentials" }
            return results.map { result in
                let credential = result.credential
                var line = "\(credential.id)  \(credential.docType)  status: \(credential.status.map(\.description) ?? "none")"
                if let entry = credential.metadata.statusList { line += "  (status list index \(entry.idx) of \(entry.uri))" }
                if let failure = result.failure { line += "\n  not fetched: \(failure)" }
                return line
            }.joined(separator: "\n")
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
        /// When the status was last established online (docs/sdk.md "Holder: status").
        var statusCheckedAt: Date?
        var branding: CredentialBranding?
        var issuerInfo: CredentialIssuerInfo
        /// The MSO's status list entry, as the tenant's issued-credential record shows it (docs/sdk.md "Holder: status").
        var statusList: CredentialStatusListEntry?

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
            statusList = credential.metadata.statusList
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
        if let entry = credential.metadata.statusList { lines.append("status list index \(entry.idx) of \(entry.uri)") }
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
