import ArgumentParser

/// `holdfast attest apple | apple-assertion | android` — verifies an App Attest attestation or assertion, or an
/// Android Key Attestation chain, with the `Attestation` module, for people debugging attestations (docs/command-line.md "The `holdfast` command").
///
/// Every subcommand prints exactly one JSON object on stdout and exits 0 when it is `{"valid": true, …}`, 1 when it
/// is `{"valid": false, "code": …, "reason": …}`. A value that cannot be read (bad hex or base64, unreadable file,
/// bad instant, unknown environment) is `"code": "INVALID_ARGUMENT"`, also exit 1. Only what ArgumentParser itself
/// rejects — an unknown option, a missing required option or value — is a usage error (exit 64, nothing on stdout).
struct AttestCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "attest",
        abstract: "Verify App Attest attestations and assertions, and Android Key Attestation chains.",
        discussion: """
        Prints one JSON object: {"valid": true, …verified facts…} (exit 0) or {"valid": false, "code": …, \
        "reason": …} (exit 1). Options named hex take hex only; options named base64 take base64 only (standard or \
        URL alphabet): a hex string is often valid base64 too, and would then be read as different bytes.
        """,
        subcommands: [AppleAttestCommand.self, AppleAssertionCommand.self, AndroidAttestCommand.self]
    )

    /// Prints the outcome and turns `valid: false` into exit status 1.
    static func emit(_ outcome: AttestOutcome) throws {
        print(outcome.json)
        if !outcome.valid { throw ExitStatus.failure.exitCode }
    }
}
