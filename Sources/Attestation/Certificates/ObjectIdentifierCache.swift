import Foundation
import Plumbing
import SwiftASN1

/// `ASN1ObjectIdentifier` values by their DER encoding (X.690 §8.19, identifier and length octets included).
///
/// swift-asn1 builds an OID only from a parsed node or from encoded bytes (`init(derEncoded:)`, which runs `DER.parse`
/// on them); it has no initialiser from contents octets. Certificates use a few dozen OIDs over and over (algorithms,
/// curves, extension types, name attributes), so each encoding is decoded once and the value reused. Only encodings
/// swift-asn1 accepted are stored, so an invalid one is refused every time, as before. Bounded: when full the cache is
/// emptied and fills again with what is in use; encodings longer than `maximumEncodedLength` are decoded but not kept.
///
/// A lock rather than an actor: a lookup is one dictionary probe, made synchronously from a certificate parse.
final class ObjectIdentifierCache: Sendable {
    /// The process-wide cache `DERReader.Element.objectIdentifier` uses.
    static let shared = ObjectIdentifierCache()

    /// Longest encoding kept (every OID the certificates of the test vectors use encodes in at most 12 octets).
    static let maximumEncodedLength = Encoding.capacity

    private let identifiers = Locked<[Encoding: ASN1ObjectIdentifier]>([:])
    private let capacity: Int

    init(capacity: Int = 256) {
        self.capacity = max(1, capacity)
    }

    /// Number of encodings currently remembered.
    var count: Int { identifiers.withLock { $0.count } }

    /// The OID `encoded` (one whole TLV) encodes, or nil when swift-asn1 refuses it.
    func objectIdentifier(encoded: some Collection<UInt8>) -> ASN1ObjectIdentifier? {
        let key = Encoding(encoded)
        if let key, let cached = identifiers.withLock({ $0[key] }) { return cached }
        // A copy: the value keeps its contents as a slice of what it was decoded from, which must not be the caller's
        // (whole certificate) bytes.
        guard let decoded = try? ASN1ObjectIdentifier(derEncoded: Array(encoded)[...], withIdentifier: .objectIdentifier) else { return nil }
        guard let key else { return decoded }
        identifiers.withLock { identifiers in
            if identifiers.count >= capacity { identifiers.removeAll(keepingCapacity: true) }
            identifiers[key] = decoded
        }
        return decoded
    }

    /// An encoding of at most `capacity` octets packed into three words: a key that hashes and compares without
    /// touching memory elsewhere, made from the bytes in place (no copy on a hit).
    struct Encoding: Hashable {
        static let capacity = 24

        let count: Int
        let words: (UInt64, UInt64, UInt64)

        init?(_ bytes: some Collection<UInt8>) {
            guard bytes.count <= Self.capacity else { return nil }
            var words: (UInt64, UInt64, UInt64) = (0, 0, 0)
            for (index, byte) in bytes.enumerated() {
                let shifted = UInt64(byte) << UInt64(8 * (index % 8))
                switch index / 8 {
                case 0: words.0 |= shifted
                case 1: words.1 |= shifted
                default: words.2 |= shifted
                }
            }
            count = bytes.count
            self.words = words
        }

        func hash(into hasher: inout Hasher) {
            hasher.combine(count)
            hasher.combine(words.0)
            hasher.combine(words.1)
            hasher.combine(words.2)
        }

        static func == (lhs: Encoding, rhs: Encoding) -> Bool {
            lhs.count == rhs.count && lhs.words.0 == rhs.words.0 && lhs.words.1 == rhs.words.1 && lhs.words.2 == rhs.words.2
        }
    }
}
