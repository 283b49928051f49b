import Foundation
import Plumbing

/// Parsed certificates by their exact DER bytes, for the certificates above the leaf: every device of a model (or
/// every key of a remote-provisioning batch) sends the same intermediates, and parsing them costs more than the
/// leaf's signature check. Parsing is a pure function of the bytes, so a hit is exactly what a parse would return.
/// Bounded: when full it is emptied and fills again with what is in use.
public final class ParsedCertificateCache: Sendable {
    /// The process-wide cache `CertificateChainDecoder` uses unless given another.
    public static let shared = ParsedCertificateCache()

    private struct State {
        var certificates: [DERKey: AttestationCertificate] = [:]
        var hits = 0
    }

    private let state = Locked(State())
    private let capacity: Int

    public init(capacity: Int = 1024) {
        self.capacity = max(1, capacity)
    }

    /// How many parses were answered from the cache (for benchmarks and tests).
    public var hits: Int { state.withLock { $0.hits } }

    public var count: Int { state.withLock { $0.certificates.count } }

    /// The parsed certificate for `der`, parsed at most once while it stays in the cache.
    public func certificate(derEncoded der: [UInt8]) throws(AttestationError) -> AttestationCertificate {
        if let cached = state.withLock({ state -> AttestationCertificate? in
            let found = state.certificates[DERKey(bytes: der)]
            if found != nil { state.hits += 1 }
            return found
        }) {
            return cached
        }
        let parsed = try AttestationCertificate(derEncoded: der)
        state.withLock { state in
            if state.certificates.count >= capacity { state.certificates.removeAll(keepingCapacity: true) }
            state.certificates[DERKey(bytes: der)] = parsed
        }
        return parsed
    }
}

/// DER bytes as a dictionary key, compared with `memcmp` and hashed by their length and last 32 octets. A
/// certificate ends in its signature, whose octets differ between any two certificates, so the tail spreads keys as
/// well as the whole would; hashing 1–2 KiB per certificate showed in profiles (four lookups per Android chain).
/// Input made to collide (same length and tail) costs `memcmp`s within one bucket, bounded by the cache's capacity.
struct DERKey: Hashable {
    let bytes: [UInt8]

    static let hashedTail = 32

    func hash(into hasher: inout Hasher) {
        hasher.combine(bytes.count)
        bytes.withUnsafeBytes { hasher.combine(bytes: UnsafeRawBufferPointer(rebasing: $0.suffix(Self.hashedTail))) }
    }

    static func == (lhs: DERKey, rhs: DERKey) -> Bool {
        lhs.bytes[...].sameBytes(as: rhs.bytes[...])
    }
}

extension ArraySlice<UInt8> {
    /// Whether both hold the same bytes, by `memcmp` (`==` on slices compares element by element).
    func sameBytes(as other: ArraySlice<UInt8>) -> Bool {
        guard count == other.count else { return false }
        return withUnsafeBytes { left in
            other.withUnsafeBytes { right in
                guard let a = left.baseAddress, let b = right.baseAddress else { return true }
                return memcmp(a, b, left.count) == 0
            }
        }
    }
}
