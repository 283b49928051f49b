import Foundation
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
/// `@unchecked Sendable`: `identifiers` is only read and written under `lock`.
final class ObjectIdentifierCache: @unchecked Sendable {
    /// The process-wide cache `DERReader.Element.objectIdentifier` uses.
    static let shared = ObjectIdentifierCache()

    /// Longest encoding kept (every OID the certificates of the test vectors use encodes in at most 12 octets).
    static let maximumEncodedLength = 64

    private let lock = NSLock()
    private var identifiers: [Encoding: ASN1ObjectIdentifier] = [:]
    private let capacity: Int

    init(capacity: Int = 256) {
        self.capacity = max(1, capacity)
    }

    /// Number of encodings currently remembered.
    var count: Int { lock.withLock { identifiers.count } }

    /// The OID `encoded` (one whole TLV) encodes, or nil when swift-asn1 refuses it.
    func objectIdentifier(encoded: ArraySlice<UInt8>) -> ASN1ObjectIdentifier? {
        if let cached = lock.withLock({ identifiers[Encoding(bytes: encoded)] }) { return cached }
        // A copy: the value keeps its contents as a slice of what it was decoded from, which must not be the caller's
        // (whole certificate) array.
        let key = Array(encoded)[...]
        guard let decoded = try? ASN1ObjectIdentifier(derEncoded: key, withIdentifier: .objectIdentifier) else { return nil }
        guard key.count <= Self.maximumEncodedLength else { return decoded }
        lock.withLock {
            if identifiers.count >= capacity { identifiers.removeAll(keepingCapacity: true) }
            identifiers[Encoding(bytes: key)] = decoded
        }
        return decoded
    }

    /// An encoding as a key, hashed in bulk (an `ArraySlice` hashes octet by octet, which showed in profiles: a
    /// certificate holds about ten OIDs).
    private struct Encoding: Hashable {
        let bytes: ArraySlice<UInt8>

        func hash(into hasher: inout Hasher) {
            bytes.withUnsafeBytes { hasher.combine(bytes: $0) }
        }

        static func == (lhs: Encoding, rhs: Encoding) -> Bool { lhs.bytes.elementsEqual(rhs.bytes) }
    }
}
