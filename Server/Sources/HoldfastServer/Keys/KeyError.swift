/// Problems with the master key or the stored keys, reported at start-up with what to do about them (DESIGN.md §4
/// "Keys"). `description` is what `holdfast serve` prints: the code, then the message.
public enum KeyError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The stable codes, one per case.
    public enum Code: String, Sendable, CaseIterable {
        /// The master key file cannot be read, created, or does not hold base64 of 32 bytes.
        case masterKeyUnusable = "MASTER_KEY_UNUSABLE"
        /// The master key does not decrypt a stored key: not the key this database was created with.
        case masterKeyMismatch = "MASTER_KEY_MISMATCH"
        /// A stored tenant key is damaged (unreadable JWK, unknown algorithm).
        case tenantKeyCorrupt = "TENANT_KEY_CORRUPT"
        /// No active tenant key although keys exist.
        case noActiveTenantKey = "NO_ACTIVE_TENANT_KEY"
        /// A stored mDoc issuer certificate or its key is damaged.
        case issuerCertificateCorrupt = "ISSUER_CERTIFICATE_CORRUPT"
        /// Issuer certificates exist but not exactly one active IACA, document signer and status list signer.
        case noActiveIssuerCertificate = "NO_ACTIVE_ISSUER_CERTIFICATE"
    }

    /// The master key cannot be had (what is wrong with it, and where).
    case masterKeyUnusable(String)
    /// The master key does not open a stored key (which one, and what to do).
    case masterKeyMismatch(String)
    /// The tenant key with this kid is damaged.
    case tenantKeyCorrupt(String)
    /// `tenant_keys` has this many active signing keys, not one.
    case noActiveTenantKey(Int)
    /// The issuer certificate with this id (or its key) is damaged.
    case issuerCertificateCorrupt(String)
    /// `issuer_certificates` has no single active certificate of this kind.
    case noActiveIssuerCertificate(String)

    public var code: Code {
        switch self {
        case .masterKeyUnusable: .masterKeyUnusable
        case .masterKeyMismatch: .masterKeyMismatch
        case .tenantKeyCorrupt: .tenantKeyCorrupt
        case .noActiveTenantKey: .noActiveTenantKey
        case .issuerCertificateCorrupt: .issuerCertificateCorrupt
        case .noActiveIssuerCertificate: .noActiveIssuerCertificate
        }
    }

    public var message: String {
        switch self {
        case .masterKeyUnusable(let reason), .masterKeyMismatch(let reason): reason
        case .tenantKeyCorrupt(let kid): "tenant key \(kid) is damaged"
        case .noActiveTenantKey(let count): "tenant_keys has \(count) active signing keys; exactly one is required"
        case .issuerCertificateCorrupt(let id): "issuer certificate \(id) is damaged"
        case .noActiveIssuerCertificate(let kind): "issuer_certificates has no single active \(kind) certificate"
        }
    }

    public var description: String { "\(code.rawValue): \(message)" }
}
