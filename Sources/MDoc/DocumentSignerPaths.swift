import Crypto
import Foundation
import Plumbing
import SwiftASN1
import X509

/// Document signer paths already validated (`IssuerTrust.validate(x5chain:at:)`), so that a verifier does only the
/// crypto a presentation needs: the same few document signers sign every credential a verifier sees, and validating
/// a path again costs one more ECDSA verify of the same certificate (and the path builder's work).
///
/// An entry is keyed by the document signer certificate's DER bytes, under the trusted IACA set it was validated
/// against (SHA-256 over the sorted SHA-256 of each IACA's DER): another set never reuses it, and a lookup or a store
/// under another set than the last empties the cache (the trusted IACAs changed). The validity of every certificate
/// of the path (the document signer's and the IACA's, ISO/IEC 18013-5 Annex B.1.2, B.1.4) is checked again at each
/// use; a path that fails it is validated again in full, so a refusal carries the same error as without the cache.
/// Only successes are kept; at most `capacity` entries, and when full it starts again empty.
public final class DocumentSignerPaths: Sendable {
    /// The process-wide cache `IssuerTrust` uses unless given another.
    public static let shared = DocumentSignerPaths()

    struct Entry {
        let signer: IssuerTrust.ValidatedSigner
        /// The validity (notBefore, notAfter) of each certificate of the validated path, document signer first,
        /// trusted IACA last.
        let validity: [(notBefore: Date, notAfter: Date)]
    }

    private struct State {
        var anchors: [UInt8]?
        var entries: [LeafKey: Entry] = [:]
        var validations = 0
        var hits = 0

        mutating func use(_ anchors: [UInt8]) {
            guard self.anchors != anchors else { return }
            entries.removeAll(keepingCapacity: true)
            self.anchors = anchors
        }
    }

    private let state = Locked(State())
    public let capacity: Int

    public init(capacity: Int = 256) {
        self.capacity = max(1, capacity)
    }

    /// Full path validations made through this cache (for tests and benchmarks).
    public var validations: Int { state.withLock { $0.validations } }
    /// Validations answered from this cache.
    public var hits: Int { state.withLock { $0.hits } }
    /// Paths currently kept.
    public var count: Int { state.withLock { $0.entries.count } }

    /// The kept signer of `leaf` under `anchors`, when every certificate of its path is valid at `time`.
    func signer(for leaf: [UInt8], anchors: [UInt8], at time: Date) -> IssuerTrust.ValidatedSigner? {
        state.withLock { state -> IssuerTrust.ValidatedSigner? in
            state.use(anchors)
            guard let entry = state.entries[LeafKey(leaf)],
                  entry.validity.allSatisfy({ $0.notBefore <= time && time <= $0.notAfter }) else { return nil }
            state.hits += 1
            return entry.signer
        }
    }

    func validated() { state.withLock { $0.validations += 1 } }

    func keep(_ signer: IssuerTrust.ValidatedSigner, path: [Certificate], for leaf: [UInt8], anchors: [UInt8]) {
        state.withLock { state in
            state.use(anchors)
            if state.entries.count >= capacity, state.entries[LeafKey(leaf)] == nil { state.entries.removeAll(keepingCapacity: true) }
            state.entries[LeafKey(leaf)] = Entry(signer: signer, validity: path.map { ($0.notValidBefore, $0.notValidAfter) })
        }
    }

    /// A certificate's DER as a key, hashed over a run of bytes (an array of bytes hashes them one at a time).
    struct LeafKey: Hashable {
        let bytes: [UInt8]

        init(_ bytes: [UInt8]) { self.bytes = bytes }

        /// The length and the last 32 bytes: a certificate's DER ends with its signature (RFC 5280 §4.1.1.3), which
        /// tells certificates apart; equality still compares every byte.
        func hash(into hasher: inout Hasher) {
            hasher.combine(bytes.count)
            bytes.withUnsafeBytes { hasher.combine(bytes: UnsafeRawBufferPointer(rebasing: $0.suffix(32))) }
        }

        static func == (lhs: LeafKey, rhs: LeafKey) -> Bool {
            guard lhs.bytes.count == rhs.bytes.count else { return false }
            return lhs.bytes.withUnsafeBytes { left in
                rhs.bytes.withUnsafeBytes { right in
                    guard let l = left.baseAddress, let r = right.baseAddress else { return true }
                    return memcmp(l, r, left.count) == 0
                }
            }
        }
    }

    /// SHA-256 over the sorted SHA-256 digests of each certificate's DER: one value for one set, in any order.
    static func fingerprint(of iacas: [Certificate]) -> [UInt8] {
        let digests = iacas.map { certificate -> [UInt8] in
            var serializer = DER.Serializer()
            // A certificate that does not serialize (it was parsed, so it does) weighs as its subject's text.
            let der = (try? serializer.serialize(certificate)).map { serializer.serializedBytes } ?? Array(certificate.subject.description.utf8)
            return Array(SHA256.hash(data: der))
        }.sorted { $0.lexicographicallyPrecedes($1) }
        var hasher = SHA256()
        for digest in digests { hasher.update(data: digest) }
        return Array(hasher.finalize())
    }
}
