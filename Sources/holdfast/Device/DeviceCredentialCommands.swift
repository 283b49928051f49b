import ArgumentParser
import Foundation
import HoldfastProtocol
import HoldfastSDK
import JOSE

/// The holder's credentials from the command line (README "The `holdfast command`"): `offer`, `claim`,
/// `credentials list|get|delete` and `issuers add|list|remove`, each on the device state of `--state`. Output is
/// JSON on standard output; a failure prints `{"ok": false, "error": {code, message}}`, a line on standard error,
/// and exits 1.
enum DeviceCredentialOutput {
    static func holder(_ options: DeviceOptions, needsTethering: Bool) async throws(HoldfastError) -> MobileCredentialHolder {
        let seams = PlatformSeams.linux(stateDirectory: options.stateURL)
        let holder = MobileCredentialHolder(seams: seams)
        if needsTethering || (options.tenant != nil && options.applicationId != nil) {
            try await holder.initialize(platformConfiguration: options.platformConfiguration)
        }
        return holder
    }

    static func json(_ value: some Encodable) -> String {
        guard let data = try? HoldfastJSON.encode(value), let text = String(data: data, encoding: .utf8) else {
            return #"{"ok":false,"error":{"code":"INTERNAL_ERROR","message":"the output could not be encoded"}}"#
        }
        return text
    }

    /// Runs `body`; a `HoldfastError` becomes the failure object and exit status 1.
    static func run(_ command: String, _ body: () async throws(HoldfastError) -> String) async throws {
        do {
            print(try await body())
        } catch {
            print(json(Failure(error: .init(code: error.code.rawValue, message: error.message, issuerError: error.issuerError))))
            FileHandle.standardError.write(Data("holdfast device \(command): \(error.code): \(error.message)\n".utf8))
            throw ExitCode.failure
        }
    }

    struct Failure: Encodable {
        struct Detail: Encodable {
            var code: String
            var message: String
            var issuerError: String?
        }
        var ok = false
        var error: Detail
    }

    /// What `offer` prints, and `claim` shows before asking.
    struct OfferView: Encodable {
        struct Credential: Encodable {
            var configurationId: String
            var docType: String
            var branding: CredentialBranding?
            var claims: [String: [String]]
        }
        var issuer: String
        var issuerName: String?
        var issuerHost: String
        var credentials: [Credential]
        var transactionCode: TransactionCodeRequirement?

        init(_ offer: CredentialOffer) {
            issuer = offer.issuer
            issuerName = offer.issuerName
            issuerHost = offer.issuerHost
            credentials = offer.credentials.map { Credential(configurationId: $0.configurationId, docType: $0.docType,
                                                             branding: $0.branding, claims: $0.claims) }
            transactionCode = offer.transactionCode
        }
    }

    /// What `credentials get --json` prints.
    struct CredentialView: Encodable {
        var id: String
        var docType: String
        var claims: [String: [String: JSONValue]]
        var validityInfo: CredentialValidityInfo
        var verificationResult: CredentialVerificationResult
        var status: String?
        var branding: CredentialBranding?
        var issuerInfo: CredentialIssuerInfo

        init(_ credential: MobileCredential) {
            id = credential.id
            docType = credential.docType
            claims = credential.claims
            validityInfo = credential.metadata.validityInfo
            verificationResult = credential.verificationResult
            status = credential.status.map(\.description)
            branding = credential.metadata.branding
            issuerInfo = credential.metadata.issuerInfo
        }
    }

    static func text(_ credential: MobileCredential) -> String {
        var lines = ["\(credential.id)  \(credential.docType)" + (credential.metadata.branding.map { "  (\($0.name))" } ?? "")]
        let result = credential.verificationResult
        lines.append("verified: \(result.verified ? "yes" : "no")" + (result.failureType.map { " — \($0.rawValue)" } ?? ""))
        if let status = credential.status { lines.append("status: \(status)") }
        let dates = ISO8601DateFormatter()
        lines.append("valid from \(dates.string(from: credential.metadata.validityInfo.validFrom)) until "
                     + dates.string(from: credential.metadata.validityInfo.validUntil))
        for space in credential.claims.keys.sorted() {
            lines.append(space)
            for (element, value) in (credential.claims[space] ?? [:]).sorted(by: { $0.key < $1.key }) {
                lines.append("  \(element): \(json(value))")
            }
        }
        return lines.joined(separator: "\n")
    }
}

struct DeviceOffer: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "offer", abstract: "Show what a credential offer holds (issuer, credentials, claims, transaction code).")
    @OptionGroup var options: DeviceOptions
    @Argument(help: "The offer URI (openid-credential-offer://?credential_offer=… or …credential_offer_uri=…).")
    var uri: String

    func run() async throws {
        try await DeviceCredentialOutput.run("offer") { () async throws(HoldfastError) in try await Self.output(options, uri: uri) }
    }

    static func output(_ options: DeviceOptions, uri: String) async throws(HoldfastError) -> String {
        let holder = try await DeviceCredentialOutput.holder(options, needsTethering: false)
        return DeviceCredentialOutput.json(DeviceCredentialOutput.OfferView(try await holder.retrieveCredentialOffer(uri: uri)))
    }
}

struct DeviceClaim: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "claim",
        abstract: "Claim the credentials of an offer with the registered instance (asks first unless --yes).",
        discussion: "Needs --tenant and --application of a registered device; the issuer's IACA must be trusted (issuers add).")
    @OptionGroup var options: DeviceOptions
    @Argument(help: "The offer URI.") var uri: String
    @Option(name: .customLong("tx-code"), help: "The transaction code the issuer sent by another channel.") var txCode: String?
    @Flag(help: "Claim without asking.") var yes = false

    func validate() throws { try options.requireTenant() }

    func run() async throws {
        try await DeviceCredentialOutput.run("claim") { () async throws(HoldfastError) in
            let holder = try await DeviceCredentialOutput.holder(options, needsTethering: true)
            let offer = try await holder.retrieveCredentialOffer(uri: uri)
            if !yes {
                let summary = offer.credentials.map { "\($0.branding?.name ?? $0.docType) (\($0.docType))" }.joined(separator: ", ")
                FileHandle.standardError.write(Data("\(offer.issuerName ?? offer.issuerHost) offers: \(summary). Claim? [y/N] ".utf8))
                guard let answer = readLine(), ["y", "yes"].contains(answer.lowercased().trimmingCharacters(in: .whitespaces)) else {
                    throw HoldfastError(.validationFailed, "not claimed: the offer was not accepted (answer y, or pass --yes)")
                }
            }
            return DeviceCredentialOutput.json(try await holder.claimCredentials(offer: offer, transactionCode: txCode))
        }
    }

    /// `claim --yes`.
    static func output(_ options: DeviceOptions, uri: String, txCode: String?) async throws(HoldfastError) -> String {
        let holder = try await DeviceCredentialOutput.holder(options, needsTethering: true)
        let offer = try await holder.retrieveCredentialOffer(uri: uri)
        return DeviceCredentialOutput.json(try await holder.claimCredentials(offer: offer, transactionCode: txCode))
    }
}

struct DeviceCredentials: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "credentials", abstract: "The stored credentials.", subcommands: [List.self, Get.self, Delete.self])
    @OptionGroup var options: DeviceOptions

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List the stored credentials (no claim values).")
        @OptionGroup var options: DeviceOptions
        @Flag(help: "Print a JSON array of the credentials' metadata.") var json = false

        func run() async throws {
            try await DeviceCredentialOutput.run("credentials list") { () async throws(HoldfastError) in
                try await Self.output(options, json: json)
            }
        }

        static func output(_ options: DeviceOptions, json: Bool) async throws(HoldfastError) -> String {
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

        static func output(_ options: DeviceOptions, id: String, skipStatusCheck: Bool, json: Bool) async throws(HoldfastError) -> String {
            let credential = try await DeviceCredentialOutput.holder(options, needsTethering: false)
                .getCredential(credentialId: id, skipStatusCheck: skipStatusCheck)
            return json ? DeviceCredentialOutput.json(DeviceCredentialOutput.CredentialView(credential)) : DeviceCredentialOutput.text(credential)
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
}

struct DeviceIssuers: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "issuers", abstract: "The trusted issuer certificates (IACAs).", subcommands: [Add.self, List.self, Remove.self])
    @OptionGroup var options: DeviceOptions

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Trust the certificates of a PEM file (@file) or PEM text.")
        @OptionGroup var options: DeviceOptions
        @Argument(help: "@path/to/iaca.pem, or the PEM text itself.") var pem: String

        func run() async throws {
            try await DeviceCredentialOutput.run("issuers add") { () async throws(HoldfastError) in try await Self.output(options, pem: pem) }
        }

        static func output(_ options: DeviceOptions, pem: String) async throws(HoldfastError) -> String {
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

/// `holdfast device --state DIR present <uri>` (README "The `holdfast` command"): fetches and verifies the verifier's
/// request, shows who asks, how it was verified, what it asks and what matches, then (after `y`, or with `--yes`)
/// sends the chosen credentials — by default the first match of each request. Prints one JSON object.
struct DevicePresent: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "present", abstract: "Present stored credentials to a verifier (OpenID4VP 1.0 or ISO 18013-7:2024).")
    @OptionGroup var options: DeviceOptions
    @Argument(help: "The verifier's authorization request URI (openid4vp://…, mdoc-openid4vp://… or https://…).") var uri: String
    @Flag(name: .customLong("require-trusted-verifier"), help: "Accept only a verifier whose certificate chains to a trusted one (verifiers add).")
    var requireTrustedVerifier = false
    @Option(name: .customLong("select"), parsing: .upToNextOption, help: "The credential ids to send (default: the first match of each request).")
    var select: [String] = []
    @Flag(help: "Send without asking.") var yes = false
    @Flag(help: "Decline instead of sending.") var decline = false

    struct Report: Encodable {
        struct Verifier: Encodable {
            var clientId: String
            var name: String?
            var verifiedBy: String
            var protocolName: String
        }
        struct Asked: Encodable {
            var id: String
            var docType: String
            var namespaces: [String: [String: Bool]]
            var matches: [String]
        }
        var verifier: Verifier
        var requests: [Asked]
        var sent: [String]
        var declined: Bool
        var redirectUri: String?
    }

    func run() async throws {
        try await DeviceCredentialOutput.run("present") { () async throws(HoldfastError) in
            try await Self.output(options, uri: uri, requireTrustedVerifier: requireTrustedVerifier, select: select, decline: decline,
                                  confirm: yes ? { _ in true } : Self.ask)
        }
    }

    /// Asks on the terminal: the summary on standard error, `y` on standard input.
    static func ask(_ summary: String) -> Bool {
        FileHandle.standardError.write(Data("\(summary)\nSend? [y/N] ".utf8))
        return readLine().map { ["y", "yes"].contains($0.lowercased().trimmingCharacters(in: .whitespaces)) } ?? false
    }

    static func output(_ options: DeviceOptions, uri: String, requireTrustedVerifier: Bool, select: [String], decline: Bool,
                       confirm: (String) -> Bool, transport: (any HTTPTransport)? = nil) async throws(HoldfastError) -> String {
        var seams = PlatformSeams.linux(stateDirectory: options.stateURL)
        if let transport { seams.transport = transport }
        let holder = MobileCredentialHolder(seams: seams)
        let session = try await holder.createOnlinePresentationSession(authorisationRequestUri: uri, requireTrustedVerifier: requireTrustedVerifier)
        let request = session.request
        var report = Report(verifier: .init(clientId: request.clientId, name: request.verifierName, verifiedBy: request.verifiedBy.rawValue,
                                            protocolName: request.presentationProtocol.rawValue),
                            requests: session.matchedCredentials.map {
                                Report.Asked(id: $0.request.id, docType: $0.request.docType, namespaces: $0.request.namespaces,
                                             matches: $0.matchedMobileCredentials.map(\.id))
                            }, sent: [], declined: false, redirectUri: nil)
        if decline {
            try await session.declineRequest()
            report.declined = true
            return DeviceCredentialOutput.json(report)
        }
        let chosen = select.isEmpty ? session.matchedCredentials.compactMap { $0.matchedMobileCredentials.first?.id } : select
        guard !chosen.isEmpty else {
            throw HoldfastError(.credentialNotFound, "no stored credential matches what \(request.verifierName ?? request.clientId) asks")
        }
        let asked = session.matchedCredentials.map { match in
            "\(match.request.docType): " + match.request.namespaces.flatMap { space, elements in elements.keys.sorted().map { "\(space)/\($0)" } }
                .sorted().joined(separator: ", ")
        }.joined(separator: "; ")
        let summary = "\(request.verifierName ?? request.clientId) (verified by \(request.verifiedBy.rawValue)) asks for \(asked)"
        guard confirm(summary) else {
            throw HoldfastError(.validationFailed, "not sent: the request was not accepted (answer y, pass --yes, or --decline)")
        }
        report.redirectUri = try await session.sendResponse(credentialIds: chosen, autoRedirect: false)
        report.sent = chosen
        return DeviceCredentialOutput.json(report)
    }
}

struct DeviceVerifiers: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "verifiers", abstract: "The trusted verifier certificates (the CAs of request-signing certificates).",
        subcommands: [Add.self, List.self, Remove.self])
    @OptionGroup var options: DeviceOptions

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
