import ArgumentParser
import Foundation
import HoldfastSDK

/// What `present` and `present-digital` share (docs/command-line.md "The `holdfast` command"): the person's choices —
/// whether the verifier must be trusted, which credentials, the unknown-status policy, consent (`--yes`) or a
/// decline (`--decline`) — and the consent prompt.
struct PresentationChoices: ParsableArguments {
    @Flag(name: .customLong("require-trusted-verifier"), help: "Accept only a verifier whose certificate chains to a trusted one (verifiers add).")
    var requireTrustedVerifier = false
    @Option(name: .customLong("select"), parsing: .upToNextOption, help: "The credential ids to send (default: the first match of each request).")
    var select: [String] = []
    @Option(name: .customLong("unknown-status"), help: "A credential of unknown status: exclude, allowWithWarning (the default) or allowIfCheckedWithin (with --checked-within).")
    var unknownStatus: UnknownStatusChoice = .allowWithWarning
    @Option(name: .customLong("checked-within"), help: "With --unknown-status allowIfCheckedWithin: the seconds since its status was last checked online.")
    var checkedWithin: Double?
    @Flag(help: "Send without asking.") var yes = false
    @Flag(help: "Decline instead of sending.") var decline = false

    /// `--unknown-status` (docs/sdk.md "Holder: status").
    enum UnknownStatusChoice: String, ExpressibleByArgument, CaseIterable {
        case exclude, allowWithWarning, allowIfCheckedWithin
    }

    func validate() throws {
        if unknownStatus == .allowIfCheckedWithin, checkedWithin == nil {
            throw ValidationError("--unknown-status allowIfCheckedWithin needs --checked-within SECONDS")
        }
    }

    var unknownStatusPolicy: UnknownStatusPolicy {
        switch unknownStatus {
        case .exclude: .exclude
        case .allowWithWarning: .allowWithWarning
        case .allowIfCheckedWithin: .allowIfCheckedWithin(seconds: checkedWithin ?? 0)
        }
    }

    /// The consent: `--yes` consents; otherwise the summary on standard error and `y` on standard input.
    var confirm: (String) -> Bool {
        if yes { return { _ in true } }
        return Self.ask
    }

    /// Asks on the terminal: the summary on standard error, `y` on standard input.
    static func ask(_ summary: String) -> Bool {
        FileHandle.standardError.write(Data("\(summary)\nSend? [y/N] ".utf8))
        return readLine().map { ["y", "yes"].contains($0.lowercased().trimmingCharacters(in: .whitespaces)) } ?? false
    }

    /// The prompt after who asks: what each request asks (`docType: namespace/element, …; …`), and a warning for
    /// the `chosen` credentials whose status is unknown (docs/sdk.md "Holder: status").
    static func summary(asker: String, matches: [MatchedCredentials], chosen: [String]) -> String {
        let asked = matches.map { match in
            "\(match.request.docType): " + match.request.namespaces.flatMap { space, elements in elements.keys.sorted().map { "\(space)/\($0)" } }
                .sorted().joined(separator: ", ")
        }.joined(separator: "; ")
        var summary = "\(asker) asks for \(asked)"
        let unknown = matches.flatMap(\.unknownStatus).filter(chosen.contains).sorted()
        if !unknown.isEmpty {
            summary += "\nwarning: the status of \(unknown.joined(separator: ", ")) is unknown (not checked online recently; "
                + "it may be revoked) — `holdfast device credentials refresh-status` checks it now"
        }
        return summary
    }
}
