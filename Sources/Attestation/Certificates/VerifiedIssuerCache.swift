import Crypto

/// Remembers which (issuer, subject) certificate pairs already had their signature verified.
///
/// The intermediates of attestation chains are the same for millions of devices, so after the first attestation only
/// the leaf's signature costs a public-key operation. Keys are SHA-256 over both certificates' DER, so a cached
/// verdict applies only to exactly those bytes. Only successes are stored; the cache is bounded and simply starts
/// over when full (intermediates are few, so this practically never happens).
public actor VerifiedIssuerCache {
    /// The process-wide cache the verifiers use unless given another.
    public static let shared = VerifiedIssuerCache()

    private var verified: Set<[UInt8]> = []
    private let capacity: Int
    /// How many lookups were answered from the cache (for benchmarks and tests).
    public private(set) var hits = 0

    public init(capacity: Int = 4096) {
        self.capacity = max(1, capacity)
    }

    /// Whether `subject`'s signature by `issuer` verifies; computed once per distinct pair.
    func isValid(_ subject: AttestationCertificate, issuedBy issuer: AttestationCertificate) -> Bool {
        let key = Self.key(subject: subject, issuer: issuer)
        if verified.contains(key) {
            hits += 1
            return true
        }
        guard CertificateSignature.isValid(subject, issuedBy: issuer) else { return false }
        if verified.count >= capacity { verified.removeAll(keepingCapacity: true) }
        verified.insert(key)
        return true
    }

    /// Number of pairs currently remembered.
    public var count: Int { verified.count }

    private static func key(subject: AttestationCertificate, issuer: AttestationCertificate) -> [UInt8] {
        var hasher = SHA256()
        hasher.update(data: issuer.derEncoded)
        hasher.update(data: subject.derEncoded)
        // Length of the issuer closes the door on two different splits of the same concatenation.
        withUnsafeBytes(of: UInt64(issuer.derEncoded.count).bigEndian) { hasher.update(bufferPointer: $0) }
        return Array(hasher.finalize())
    }
}
