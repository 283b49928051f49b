import Crypto
import Foundation
import Plumbing

/// Remembers which (issuer, subject) certificate pairs already had their signature verified.
///
/// The intermediates of attestation chains are the same for millions of devices, so after the first attestation only
/// the leaf's signature costs a public-key operation. A pair is remembered two ways:
/// - by the two parses (`AttestationCertificate.Storage`): the certificates above the leaf come from `ParsedCertificateCache` (and
///   the roots are parsed once), so the same intermediate is the same parse every time; a parse's bytes never
///   change, and the cache holds the parses it names, so their identities cannot be reused;
/// - by SHA-256 over both certificates' DER, asked only when the parses are new (certificates parsed without the
///   parsed-certificate cache), so a verdict still applies to exactly those bytes however they were parsed.
/// It also keeps the public keys of the issuers it is asked about (`key(of:)`), by parse: the leaf's issuer is the same
/// parse every time, and building its key again cost a tenth of the leaf's verify.
/// Only successes are stored; the cache is bounded and simply starts over when full (intermediates are few, so this
/// practically never happens).
///
/// A lock rather than an actor: a lookup is a set probe, cheaper than the hop to an actor and back that every
/// verification would pay three or four times. A signature is checked outside the lock.
public final class VerifiedIssuerCache: Sendable {
    /// The process-wide cache the verifiers use unless given another.
    public static let shared = VerifiedIssuerCache()

    private struct Pair: Hashable {
        let issuer: AttestationCertificate.Storage
        let subject: AttestationCertificate.Storage

        static func == (lhs: Pair, rhs: Pair) -> Bool { lhs.issuer === rhs.issuer && lhs.subject === rhs.subject }

        func hash(into hasher: inout Hasher) {
            hasher.combine(ObjectIdentifier(issuer))
            hasher.combine(ObjectIdentifier(subject))
        }
    }

    private struct State {
        var verified: Set<Pair> = []
        var verifiedDigests: Set<[UInt8]> = []
        var keys: [ObjectIdentifier: (issuer: AttestationCertificate.Storage, key: CertificateSignature.Key)] = [:]
        var hits = 0

        mutating func remember(_ key: Pair, _ digest: [UInt8], capacity: Int) {
            if verified.count >= capacity || verifiedDigests.count >= capacity {
                verified.removeAll(keepingCapacity: true)
                verifiedDigests.removeAll(keepingCapacity: true)
            }
            verified.insert(key)
            verifiedDigests.insert(digest)
        }
    }

    private let state = Locked(State())
    private let capacity: Int

    public init(capacity: Int = 4096) {
        self.capacity = max(1, capacity)
    }

    /// How many lookups were answered from the cache (for benchmarks and tests).
    public var hits: Int { state.withLock { $0.hits } }

    /// Number of pairs currently remembered.
    public var count: Int { state.withLock { $0.verified.count } }

    /// Whether `subject`'s signature by `issuer` verifies; computed once per distinct pair of parses (two threads
    /// asking at once for a new pair may both compute it).
    func isValid(_ subject: AttestationCertificate, issuedBy issuer: AttestationCertificate) -> Bool {
        let key = Pair(issuer: issuer.storage, subject: subject.storage)
        if state.withLock({ state -> Bool in
            guard state.verified.contains(key) else { return false }
            state.hits += 1
            return true
        }) {
            return true
        }
        let digest = Self.digest(subject: subject, issuer: issuer)
        let known = state.withLock { state -> Bool in
            guard state.verifiedDigests.contains(digest) else { return false }
            state.hits += 1
            state.remember(key, digest, capacity: capacity)
            return true
        }
        if known { return true }
        guard CertificateSignature.isValid(subject, issuedBy: issuer) else { return false }
        state.withLock { $0.remember(key, digest, capacity: capacity) }
        return true
    }

    /// Whether `subject`'s signature by `issuer` verifies, checked every time (the leaf: unique to one attestation,
    /// remembering it would only fill the cache) with the issuer's key built once per parse.
    func isValidUncached(_ subject: AttestationCertificate, issuedBy issuer: AttestationCertificate) -> Bool {
        guard let key = key(of: issuer) else { return false }
        return CertificateSignature.isValid(subject, key: key)
    }

    /// The public key of `issuer`, built at most once per parse while it stays in the cache (nil if it is not a key
    /// `CertificateSignature` can verify with).
    func key(of issuer: AttestationCertificate) -> CertificateSignature.Key? {
        let identity = ObjectIdentifier(issuer.storage)
        if let known = state.withLock({ $0.keys[identity]?.key }) { return known }
        guard let key = CertificateSignature.Key(issuer) else { return nil }
        state.withLock { state in
            if state.keys.count >= capacity { state.keys.removeAll(keepingCapacity: true) }
            // The entry holds the parse, so its identity cannot be reused while the entry exists.
            state.keys[identity] = (issuer.storage, key)
        }
        return key
    }

    private static func digest(subject: AttestationCertificate, issuer: AttestationCertificate) -> [UInt8] {
        var hasher = SHA256()
        hasher.update(data: issuer.derEncoded)
        hasher.update(data: subject.derEncoded)
        // Length of the issuer closes the door on two different splits of the same concatenation.
        withUnsafeBytes(of: UInt64(issuer.derEncoded.count).bigEndian) { hasher.update(bufferPointer: $0) }
        return Array(hasher.finalize())
    }
}
