/// The server's own HTTP requests (docs/operations.md "Configuration", "Outbound requests"): other issuers' status lists and
/// Google's attestation status list. By default they go only to public addresses; a private deployment whose issuers
/// or mirrors sit on its own network, and the tests' servers on loopback, turn `allowsPrivateAddresses` on.
public struct OutboundConfiguration: Sendable, Equatable {
    /// `HOLDFAST_OUTBOUND_ALLOW_PRIVATE`: whether a host may resolve to a loopback, private, link-local, unique-local,
    /// shared (CGNAT) or otherwise non-public address (`OutboundAddressPolicy`).
    public var allowsPrivateAddresses: Bool
    /// `HOLDFAST_OUTBOUND_STATUS_LIST_TIMEOUT_SECS`: how long fetching another issuer's status list may take in all
    /// (resolution, connection, answer and body); past it the credential's status is unknown.
    public var statusListDeadline: Duration

    public static let defaultStatusListDeadline = Duration.seconds(10)

    public init(allowsPrivateAddresses: Bool = false, statusListDeadline: Duration = defaultStatusListDeadline) {
        self.allowsPrivateAddresses = allowsPrivateAddresses
        self.statusListDeadline = statusListDeadline
    }

    mutating func apply(environment value: (String) -> String?) throws(ConfigurationError) {
        if let text = value("HOLDFAST_OUTBOUND_ALLOW_PRIVATE") {
            switch text.lowercased() {
            case "true", "1", "yes": allowsPrivateAddresses = true
            case "false", "0", "no": allowsPrivateAddresses = false
            default: throw ConfigurationError(variable: "HOLDFAST_OUTBOUND_ALLOW_PRIVATE", reason: "must be true or false")
            }
        }
        if let text = value("HOLDFAST_OUTBOUND_STATUS_LIST_TIMEOUT_SECS") {
            guard let seconds = Int(text), (1...120).contains(seconds) else {
                throw ConfigurationError(variable: "HOLDFAST_OUTBOUND_STATUS_LIST_TIMEOUT_SECS",
                                         reason: "must be a whole number of seconds from 1 to 120")
            }
            statusListDeadline = .seconds(seconds)
        }
    }

    var description: [String] {
        ["outbound requests: " + (allowsPrivateAddresses
            ? "private and loopback addresses ALLOWED (HOLDFAST_OUTBOUND_ALLOW_PRIVATE)"
            : "public addresses only") + "; status lists within \(statusListDeadline.components.seconds)s"]
    }
}
