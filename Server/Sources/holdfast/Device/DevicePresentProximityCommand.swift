import ArgumentParser
import Foundation
import HoldfastProtocol
import HoldfastSDK

/// `holdfast device --state DIR present-proximity [--transport loopback] [--yes | --decline] [--require-trusted-reader]`
/// (docs/command-line.md "The `holdfast` command"; docs/sdk.md "Holder: proximity presentation"): the holder's side of
/// an in-person presentation (ISO/IEC 18013-5). Prints exactly one line `mdoc:…` (the engagement's QR text) on
/// standard output, flushed, before a reader can connect; then, for each request, what was asked and, after consent,
/// what was sent; and exits 0 when the reader ends the session (status 20, or the connection closed).
struct DevicePresentProximity: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "present-proximity",
        abstract: "Present in person (ISO/IEC 18013-5): print the mdoc: engagement, then answer the reader's requests.")

    /// `--transport`: only the loopback transport runs here (BLE is Apple-only, docs/sdk.md "Proximity transports").
    enum Transport: String, ExpressibleByArgument, CaseIterable {
        case loopback
    }

    @OptionGroup var options: DeviceOptions
    @Option(help: "How the reader reaches this device: loopback (127.0.0.1, not ISO 18013-5; BLE is Apple-only).")
    var transport: Transport = .loopback
    @Option(help: "The loopback port to listen on (0: any free port).") var port: UInt16 = 0
    @Flag(name: .customLong("require-trusted-reader"), help: "Answer only a reader whose readerAuth chains to a trusted reader CA (readers add).")
    var requireTrustedReader = false
    @Option(name: .customLong("select"), parsing: .upToNextOption, help: "The credential ids to send (default: the first match of each request).")
    var select: [String] = []
    @Flag(help: "Send without asking.") var yes = false
    @Flag(help: "Decline every request instead of sending.") var decline = false

    func validate() throws {
        if yes, decline { throw ValidationError("--yes and --decline exclude each other") }
    }

    func run() async throws {
        let holder: MobileCredentialHolder
        let session: ProximityPresentationSession
        do throws(HoldfastError) {
            holder = try await DeviceCredentialOutput.holder(options, needsTethering: false)
            session = try await holder.createProximityPresentationSession(transport: LoopbackMDocTransport(port: port),
                                                                         requireTrustedReader: requireTrustedReader)
        } catch {
            try DeviceCredentialOutput.fail("present-proximity", DeviceReport.Failure(error))
        }
        Self.line(session.qrCode)
        for await event in session.events {
            switch event {
            case .engagementReady, .responseSent:
                continue
            case .readerConnected:
                Self.standardError("a reader connected")
            case .requestReceived(let request):
                if let failure = await answer(request, session: session) {
                    // An answer that cannot be made (a --select naming no match, the offline limit passed) ends the
                    // session with status 20 (ISO/IEC 18013-5 §9.1.1.4) rather than leave the reader waiting for one.
                    await session.terminate()
                    Self.line("ended: the answer could not be made; the session was ended with status 20")
                    throw DeviceReport.Failure(failure).commandFailure("present-proximity")
                }
            case .terminated(let reason):
                Self.line("ended: \(Self.describe(reason))")
                switch reason {
                case .readerEnded, .connectionClosed, .terminatedByHolder: return
                case .readerUntrusted:
                    throw CommandFailure(.dataError, "the reader is not trusted (--require-trusted-reader): nothing was disclosed")
                case .sessionEncryptionFailed, .decodingFailed:
                    throw CommandFailure(.dataError, "the session ended: \(Self.describe(reason))")
                case .transportFailed(let why):
                    throw CommandFailure(.unavailable, "the transport failed: \(why)")
                }
            }
        }
    }

    /// Shows what one request asks (standard output), asks for consent unless `--yes` / `--decline`, and answers; the
    /// error when the answer could not be made.
    private func answer(_ request: ProximityRequest, session: ProximityPresentationSession) async -> HoldfastError? {
        let asker = request.verifiedBy == .certificate ? "\(request.readerName ?? "a reader") (verified by certificate)" : "an unverified reader"
        let chosen = select.isEmpty ? request.matchedCredentials.compactMap { $0.matchedMobileCredentials.first?.id } : select
        let summary = PresentationChoices.summary(asker: asker, matches: request.matchedCredentials, chosen: decline ? [] : chosen)
        Self.line("asked: " + summary.replacingOccurrences(of: "\n", with: " "))
        do throws(HoldfastError) {
            if decline {
                try await session.declineRequest()
                Self.line("sent: nothing (declined)")
                return nil
            }
            guard yes || PresentationChoices.ask(summary) else {
                try await session.declineRequest()
                Self.line("sent: nothing (declined)")
                return nil
            }
            try await session.sendResponse(credentialIds: chosen)
            let sent = request.matchedCredentials.flatMap { match in
                chosen.compactMap { id in match.claims[id].map { claims in "\(id) (\(claims.map { "\($0.nameSpace)/\($0.elementIdentifier)" }.joined(separator: ", ")))" } }
            }
            Self.line("sent: " + (sent.isEmpty ? "no document (documentErrors: not held)" : sent.joined(separator: "; ")))
            return nil
        } catch {
            return error
        }
    }

    static func describe(_ reason: ProximityTerminationReason) -> String {
        switch reason {
        case .readerEnded: "the reader ended the session (status 20)"
        case .connectionClosed: "the reader closed the connection"
        case .terminatedByHolder: "terminated"
        case .readerUntrusted: "the reader is not trusted; the session was ended with status 20"
        case .sessionEncryptionFailed: "a message did not decrypt; status 10 was sent"
        case .decodingFailed: "a message was not CBOR of the session; status 11 was sent"
        case .transportFailed(let why): "the transport failed: \(why)"
        }
    }

    /// One line on standard output, flushed at once (a reader process waits for the `mdoc:` line).
    static func line(_ text: String) {
        FileHandle.standardOutput.write(Data((text + "\n").utf8))
    }

    static func standardError(_ line: String) { FileHandle.standardError.write(Data("\(line)\n".utf8)) }
}
