/// Bounds applied to everything this module parses.
public enum JOSELimits {
    /// The longest compact JWS / JWE accepted by default (1 MiB).
    public static let maximumCompactLength = 1 << 20
    /// The most certificates accepted in `x5c`.
    public static let maximumCertificateChainLength = 10
}
