import ArgumentParser
import Foundation
import HoldfastProtocol
import HoldfastSDK

/// `holdfast device --state DIR present-digital --origin https://shop.example @request.json` (docs/command-line.md
/// "The `holdfast` command"; docs/sdk.md "Digital Credentials API"): what a wallet app does when the platform hands it
/// a W3C Digital Credentials API request — reads and verifies it for the page's origin, shows who asks, how it was
/// verified and what it asks (standard error), asks for consent as `present` does, and prints the `{protocol, data}`
/// answer the platform hands back to the page alone on standard output: the chosen credentials, or the decline.
struct DevicePresentDigital: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "present-digital",
        abstract: "Answer a W3C Digital Credentials API request (OpenID4VP 1.0 Appendix A or ISO/IEC TS 18013-7 Annex C) for a page's origin.")
    @OptionGroup var options: DeviceOptions
    @Option(name: .customLong("origin"), help: "The calling page's origin, as the platform reports it (https://shop.example).")
    var origin: String
    @Argument(help: "The request: @FILE, - (standard input) or the JSON itself; one {protocol, data} or the whole digital object.")
    var request: String
    @OptionGroup var choices: PresentationChoices

    func run() async throws {
        // What is asked and by whom goes to standard error whether asked or consented with --yes.
        var confirm: (String) -> Bool = PresentationChoices.ask
        if choices.yes { confirm = { summary in Self.standardError(summary); return true } }
        let answer: Data
        do throws(HoldfastError) {
            answer = try await Self.answer(options, request: try Self.requestBytes(request), origin: origin, choices: choices,
                                           confirm: confirm, log: Self.standardError)
        } catch {
            try DeviceCredentialOutput.fail("present-digital", DeviceReport.Failure(error))
        }
        print(String(decoding: answer, as: UTF8.self))
    }

    /// The request's bytes: the contents of `@FILE`, standard input for `-`, or the argument itself.
    static func requestBytes(_ argument: String) throws(HoldfastError) -> Data {
        if argument == "-" { return FileHandle.standardInput.readDataToEndOfFile() }
        guard argument.hasPrefix("@") else { return Data(argument.utf8) }
        let path = String(argument.dropFirst())
        guard let data = FileManager.default.contents(atPath: path) else {
            throw HoldfastError(.validationFailed, "cannot read the request file \(path)")
        }
        return data
    }

    static func standardError(_ line: String) { FileHandle.standardError.write(Data("\(line)\n".utf8)) }

    /// Who asks, as the prompt names it: a verifier nothing vouches for (`none`) is named by the page's host.
    static func asker(_ request: DigitalCredentialsRequest) -> String {
        switch request.verifiedBy {
        case .none: "unverified verifier at \(request.verifierName ?? request.origin) (\(request.protocol))"
        case .certificate, .domain: "\(request.verifierName ?? request.origin) (verified by \(request.verifiedBy.rawValue), \(request.protocol))"
        }
    }

    /// The answer JSON: the chosen credentials (`--select`, by default the first match of each request) after
    /// `confirm`, or the decline (`--decline`, or no consent). Nothing matching is the SDK's `CREDENTIAL_NOT_FOUND`
    /// (the message names what is missing) unless `--decline`. Everything but the answer goes to `log`.
    static func answer(_ options: some DeviceSettings, request: Data, origin: String, choices: PresentationChoices,
                       confirm: (String) -> Bool, log: (String) -> Void) async throws(HoldfastError) -> Data {
        var seams = PlatformSeams.linux(stateDirectory: options.stateURL)
        seams.tetheringScheduler = ManualTetheringScheduler()
        let holder = MobileCredentialHolder(seams: seams)
        if options.namesTenantAndApplication {
            // docs/sdk.md "Holder: the offline limit": a tethered device presents only within its license.
            try await holder.tethering.configure(options.platformConfiguration)
        }
        let session = try await holder.createDigitalCredentialsPresentationSession(
            request: request, origin: origin, requireTrustedVerifier: choices.requireTrustedVerifier,
            unknownStatusPolicy: choices.unknownStatusPolicy)
        if choices.decline {
            log("declined: \(asker(session.request)) is told no")
            return try await session.declineRequest()
        }
        if choices.select.isEmpty, let notFound = session.credentialNotFound {
            log("nothing was answered: --decline answers the page with a decline")
            throw notFound
        }
        let chosen = choices.select.isEmpty ? session.matchedCredentials.compactMap { $0.matchedMobileCredentials.first?.id } : choices.select
        let summary = PresentationChoices.summary(asker: asker(session.request), matches: session.matchedCredentials, chosen: chosen)
        guard confirm(summary) else {
            log("declined")
            return try await session.declineRequest()
        }
        let answer = try await session.sendResponse(credentialIds: chosen)
        log("sent: \(chosen.joined(separator: ", "))")
        return answer
    }
}
