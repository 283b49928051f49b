/// The server's own HTTP requests (README "Configuration", "Outbound requests"): other issuers' status lists and
/// Google's attestation status list. By default they go only to public addresses; a private deployment whose issuers
/// or mirrors sit on its own network, and the tests' servers on loopback, turn `allowsPrivateAddresses` on.
public struct OutboundConfiguration: Sendable, Equatable {
    /// `HOLDFAST_OUTBOUND_ALLOW_PRIVATE`: whether a host may resolve to a loopback, private, link-local, unique-local,
    /// shared (CGNAT) or otherwise non-public address (`OutboundAddressPolicy`).
    public var allowsPrivateAddresses: Bool

    public init(allowsPrivateAddresses: Bool = false) {
        self.allowsPrivateAddresses = allowsPrivateAddresses
    }

    mutating func apply(environment value: (String) -> String?) throws(ConfigurationError) {
        if let text = value("HOLDFAST_OUTBOUND_ALLOW_PRIVATE") {
            switch text.lowercased() {
            case "true", "1", "yes": allowsPrivateAddresses = true
            case "false", "0", "no": allowsPrivateAddresses = false
            default: throw ConfigurationError(variable: "HOLDFAST_OUTBOUND_ALLOW_PRIVATE", reason: "must be true or false")
            }
        }
    }

    var description: [String] {
        ["outbound requests: " + (allowsPrivateAddresses
            ? "private and loopback addresses ALLOWED (HOLDFAST_OUTBOUND_ALLOW_PRIVATE)"
            : "public addresses only")]
    }
}
