import CBOR
import Crypto

/// One disclosed data element (ISO/IEC 18013-5 §8.3.2.1.2.2): `IssuerSignedItem = {digestID, random,
/// elementIdentifier, elementValue}`, carried as `IssuerSignedItemBytes = #6.24(bstr .cbor IssuerSignedItem)`.
///
/// ``taggedBytes`` are the IssuerSignedItemBytes exactly as received (or as written when issued): the MSO's value
/// digest is over these bytes (§9.1.2.5), never over a re-encoding of the fields.
public struct IssuerSignedItem: Sendable, Hashable {
    public let digestID: UInt64
    /// The salt, at least 16 bytes (§9.1.2.5).
    public let random: [UInt8]
    public let elementIdentifier: String
    public let elementValue: CBOR
    /// `#6.24(bstr .cbor IssuerSignedItem)` as received or written.
    public let taggedBytes: [UInt8]

    /// The minimum length of `random` (§9.1.2.5).
    public static let minimumRandomLength = 16

    /// A new item, encoded once; its bytes are what the MSO digests.
    public init(digestID: UInt64, random: [UInt8], elementIdentifier: String, elementValue: CBOR) {
        self.digestID = digestID
        self.random = random
        self.elementIdentifier = elementIdentifier
        self.elementValue = elementValue
        let item = CBOR.map([
            "digestID": .unsigned(digestID), "random": .bytes(random),
            "elementIdentifier": .text(elementIdentifier), "elementValue": elementValue,
        ])
        self.taggedBytes = CBOR.embeddedEncoding(of: item.encoded())
    }

    /// Reads IssuerSignedItemBytes, keeping its exact bytes.
    public init(item: CBOR.Decoded) throws(MDocError) {
        let what = "IssuerSignedItem"
        let inner = try MDocCBOR.embedded(item, "IssuerSignedItemBytes")
        digestID = try MDocCBOR.unsigned(try MDocCBOR.field(inner, "digestID", in: what), "digestID")
        random = try MDocCBOR.bytes(try MDocCBOR.field(inner, "random", in: what), "random")
        elementIdentifier = try MDocCBOR.text(try MDocCBOR.field(inner, "elementIdentifier", in: what), "elementIdentifier")
        elementValue = try MDocCBOR.field(inner, "elementValue", in: what).value
        taggedBytes = Array(item.rawBytes)
    }

    /// The value digest of this item (§9.1.2.5).
    public func digest(_ algorithm: DigestAlgorithm) -> [UInt8] { algorithm.digest(taggedBytes) }

    /// Whether the digest of the item's exact bytes is `expected` (compared without copying the digest out).
    public func hasDigest(_ expected: [UInt8], _ algorithm: DigestAlgorithm) -> Bool {
        switch algorithm {
        case .sha256: SHA256.hash(data: taggedBytes).elementsEqual(expected)
        case .sha384: SHA384.hash(data: taggedBytes).elementsEqual(expected)
        case .sha512: SHA512.hash(data: taggedBytes).elementsEqual(expected)
        }
    }
}
