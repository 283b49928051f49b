/// OpenID4VP 1.0 §5.9.3 — the client identifier prefixes this project writes and reads: the verifier is known by its
/// request-signing certificate, either by a DNS name of its SAN or by the hash of the certificate. ISO/IEC TS
/// 18013-7:2024 Annex B writes the bare DNS name with `client_id_scheme: x509_san_dns` instead.
public enum ClientIdPrefix: String, Sendable, Hashable, CaseIterable {
    /// `x509_san_dns:<a dNSName of the leaf's SAN>`: a valid DNS name (RFC 5280 §4.2.1.6), matched only with SAN
    /// entries that are valid DNS names — an entry written with this prefix, or with a trailing dot, names nothing,
    /// as no CA's name constraints apply to it (docs/security.md "Certificate paths").
    case x509SanDNS = "x509_san_dns"
    /// `x509_hash:<base64url SHA-256 of the leaf's DER>`.
    case x509Hash = "x509_hash"

    /// `<prefix>:<value>`.
    public func clientId(_ value: String) -> String { rawValue + ":" + value }

    /// The prefix `clientId` starts with and what follows it, or nil for a client id without either prefix.
    public static func split(_ clientId: String) -> (prefix: ClientIdPrefix, value: String)? {
        for prefix in allCases where clientId.hasPrefix(prefix.rawValue + ":") {
            return (prefix, String(clientId.dropFirst(prefix.rawValue.count + 1)))
        }
        return nil
    }
}
