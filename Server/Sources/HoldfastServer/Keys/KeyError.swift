/// Problems with the master key or the tenant keys, reported at start-up with what to do about them.
public struct KeyError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Code {
        /// The master key file cannot be read, created, or does not hold base64 of 32 bytes.
        public static let masterKeyUnusable = "MASTER_KEY_UNUSABLE"
        /// The master key does not decrypt the tenant keys: not the key this database was created with.
        public static let masterKeyMismatch = "MASTER_KEY_MISMATCH"
        /// A stored tenant key is damaged (unreadable JWK, unknown algorithm).
        public static let tenantKeyCorrupt = "TENANT_KEY_CORRUPT"
        /// No active tenant key although keys exist.
        public static let noActiveTenantKey = "NO_ACTIVE_TENANT_KEY"
        /// A stored mDoc issuer certificate or its key is damaged.
        public static let issuerCertificateCorrupt = "ISSUER_CERTIFICATE_CORRUPT"
        /// Issuer certificates exist but not exactly one active IACA, document signer and status list signer.
        public static let noActiveIssuerCertificate = "NO_ACTIVE_ISSUER_CERTIFICATE"
    }

    public let code: String
    public let message: String

    public init(code: String, message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { "\(code): \(message)" }
}
