import HoldfastProtocol

/// The command that fixes a device refusal, appended to its message (docs/command-line.md "The `holdfast` command": every refusal
/// a person can fix names the command that fixes it).
enum DeviceFailureHint {
    static func hint(for code: HoldfastErrorCode) -> String? {
        switch code {
        case .untrustedIssuer:
            "trust the issuer's IACA with `holdfast device --state DIR issuers add @iacas.pem` "
                + "(the tenant prints it with `holdfast admin credentials iacas > iacas.pem`), then claim again"
        case .verifierUntrusted:
            "trust the verifier's CA with `holdfast device --state DIR verifiers add @verifier-ca.pem` "
                + "(the tenant prints it with `holdfast admin presentations verifier-cas > verifier-ca.pem`), then present again"
        case .notRegistered:
            "register it with `holdfast device --state DIR --tenant URL --application ID register`"
        default:
            nil
        }
    }

    /// `message`, with the hint for `code` after it when there is one and the message does not already name it.
    static func message(_ message: String, code: HoldfastErrorCode) -> String {
        guard let hint = hint(for: code), !message.contains("holdfast device") else { return message }
        return message + " — " + hint
    }
}
