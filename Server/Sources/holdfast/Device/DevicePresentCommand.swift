import ArgumentParser
import Foundation
import HoldfastProtocol
import HoldfastSDK

/// `holdfast device --state DIR present <uri>` (docs/command-line.md "The `holdfast` command"): fetches and verifies the verifier's
/// request, shows who asks, how it was verified, what it asks and what matches, then (after `y`, or with `--yes`)
/// sends the chosen credentials — by default the first match of each request. Prints one JSON object.
struct DevicePresent: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "present", abstract: "Present stored credentials to a verifier (OpenID4VP 1.0 or ISO 18013-7:2024).")
    @OptionGroup var options: DeviceOptions
    @Argument(help: "The verifier's authorization request URI (openid4vp://…, mdoc-openid4vp://… or https://…).") var uri: String
    @OptionGroup var choices: PresentationChoices
    @Flag(name: .customLong("keep-open"),
          help: "When no stored credential matches, leave the verifier's session open instead of declining it (access_denied).")
    var keepOpen = false

    typealias UnknownStatusChoice = PresentationChoices.UnknownStatusChoice

    var requireTrustedVerifier: Bool { choices.requireTrustedVerifier }
    var select: [String] { choices.select }
    var unknownStatus: UnknownStatusChoice { choices.unknownStatus }
    var checkedWithin: Double? { choices.checkedWithin }
    var yes: Bool { choices.yes }
    var decline: Bool { choices.decline }
    var unknownStatusPolicy: UnknownStatusPolicy { choices.unknownStatusPolicy }

    func validate() throws {
        if keepOpen, decline {
            throw ValidationError("--keep-open and --decline contradict each other: --decline ends the verifier's session")
        }
    }

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
            /// Credential id → the requested elements it holds, `namespace/element`.
            var claims: [String: [String]]
            /// Matches offered although their status is unknown.
            var unknownStatus: [String]
        }
        var verifier: Verifier
        var requests: [Asked]
        var sent: [String]
        var declined: Bool
        var redirectUri: String?
    }

    func run() async throws {
        let outcome: Outcome
        do throws(HoldfastError) {
            outcome = try await Self.outcome(options, uri: uri, requireTrustedVerifier: requireTrustedVerifier, select: select, decline: decline,
                                             keepOpen: keepOpen, confirm: choices.confirm, unknownStatusPolicy: unknownStatusPolicy)
        } catch {
            try DeviceCredentialOutput.fail("present", DeviceReport.Failure(error))
        }
        switch outcome {
        case .report(let text):
            print(text)
        case .notFound(let error, let verifierTold, let note):
            var failure = DeviceReport.Failure(error)
            failure.message += note
            try DeviceCredentialOutput.fail("present", failure, verifierTold: verifierTold)
        }
    }

    /// What `present` did: its report; or, no stored credential matching what the verifier asks, the SDK's
    /// `CREDENTIAL_NOT_FOUND` (naming what is missing, `HoldfastError.missing`), whether the verifier was told
    /// (`access_denied`) and the words that say so after the error's message.
    enum Outcome {
        case report(String)
        case notFound(HoldfastError, verifierTold: Bool, note: String)
    }

    /// Who asks, as the prompt names it (docs/sdk.md "Holder: presentation"): a verifier whose certificate nothing anchors
    /// (`none`) is named by the host its response goes to, not by a name its certificate claims.
    static func asker(_ request: AuthorizationRequest) -> String {
        switch request.verifiedBy {
        case .none: "unverified verifier at \(request.responseUri.host ?? request.responseUri.absoluteString)"
        case .certificate, .domain: "\(request.verifierName ?? request.clientId) (verified by \(request.verifiedBy.rawValue))"
        }
    }

    /// The report `present` prints; no stored credential matching is the SDK's `CREDENTIAL_NOT_FOUND` (`outcome`).
    static func output(_ options: some DeviceSettings, uri: String, requireTrustedVerifier: Bool, select: [String], decline: Bool,
                       keepOpen: Bool = false, confirm: (String) -> Bool, transport: (any HTTPTransport)? = nil,
                       unknownStatusPolicy: UnknownStatusPolicy = .allowWithWarning) async throws(HoldfastError) -> String {
        switch try await outcome(options, uri: uri, requireTrustedVerifier: requireTrustedVerifier, select: select, decline: decline,
                                 keepOpen: keepOpen, confirm: confirm, transport: transport, unknownStatusPolicy: unknownStatusPolicy) {
        case .report(let text): return text
        case .notFound(let error, _, _): throw error
        }
    }

    static func outcome(_ options: some DeviceSettings, uri: String, requireTrustedVerifier: Bool, select: [String], decline: Bool,
                        keepOpen: Bool, confirm: (String) -> Bool, transport: (any HTTPTransport)? = nil,
                        unknownStatusPolicy: UnknownStatusPolicy = .allowWithWarning) async throws(HoldfastError) -> Outcome {
        var seams = PlatformSeams.linux(stateDirectory: options.stateURL)
        if let transport { seams.transport = transport }
        seams.tetheringScheduler = ManualTetheringScheduler()
        let holder = MobileCredentialHolder(seams: seams)
        if options.namesTenantAndApplication {
            // docs/sdk.md "Holder: the offline limit": a tethered device presents only within its license.
            try await holder.tethering.configure(options.platformConfiguration)
        }
        let session = try await holder.createOnlinePresentationSession(authorisationRequestUri: uri, requireTrustedVerifier: requireTrustedVerifier,
                                                                       unknownStatusPolicy: unknownStatusPolicy)
        let request = session.request
        var report = Report(verifier: .init(clientId: request.clientId, name: request.verifierName, verifiedBy: request.verifiedBy.rawValue,
                                            protocolName: request.presentationProtocol.rawValue),
                            requests: session.matchedCredentials.map {
                                Report.Asked(id: $0.request.id, docType: $0.request.docType, namespaces: $0.request.namespaces,
                                             matches: $0.matchedMobileCredentials.map(\.id),
                                             claims: $0.claims.mapValues { $0.map { "\($0.nameSpace)/\($0.elementIdentifier)" } },
                                             unknownStatus: $0.unknownStatus.sorted())
                            }, sent: [], declined: false, redirectUri: nil)
        // Declining is a decision, not a failure: the verifier is told (`access_denied`) and the command exits 0.
        func declined() async throws(HoldfastError) -> Outcome {
            try await session.declineRequest()
            report.declined = true
            return .report(DeviceCredentialOutput.json(report))
        }
        if decline { return try await declined() }
        // Nothing to send: the error names what is missing (docs/sdk.md "Holder: presentation"), and the verifier is told
        // (OpenID4VP 1.0 §8.5 `access_denied`) so that its session ends rather than waits, unless `--keep-open`.
        if select.isEmpty, let notFound = session.credentialNotFound {
            if keepOpen {
                return .notFound(notFound, verifierTold: false,
                                 note: " — the verifier was not told: its session is left open (--keep-open) until it expires or is answered")
            }
            do {
                try await session.declineRequest()
                return .notFound(notFound, verifierTold: true, note: " — the verifier was told (access_denied): its session is ended as declined")
            } catch {
                return .notFound(notFound, verifierTold: false, note: " — the verifier could not be told (\(error.code): \(error.message))")
            }
        }
        let chosen = select.isEmpty ? session.matchedCredentials.compactMap { $0.matchedMobileCredentials.first?.id } : select
        let summary = PresentationChoices.summary(asker: Self.asker(request), matches: session.matchedCredentials, chosen: chosen)
        guard confirm(summary) else { return try await declined() }
        report.redirectUri = try await session.sendResponse(credentialIds: chosen, autoRedirect: false)
        report.sent = chosen
        return .report(DeviceCredentialOutput.json(report))
    }
}
