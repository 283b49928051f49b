import CBOR
import Crypto

/// `SessionEstablishment = {"eReaderKey": EReaderKeyBytes, "data": bstr}` (ISO/IEC 18013-5 §9.1.1.4): the reader's
/// first message, its ephemeral key and the first DeviceRequest encrypted with SKReader (§9.1.1.5).
public struct SessionEstablishment: Sendable, Hashable {
    public let eReaderKey: P256.KeyAgreement.PublicKey
    /// `EReaderKeyBytes` (`#6.24(bstr .cbor COSE_Key)`) as received or written; the SessionTranscript embeds them.
    public let eReaderKeyBytes: [UInt8]
    /// The encrypted DeviceRequest (ciphertext and tag).
    public let data: [UInt8]

    public init(eReaderKey: P256.KeyAgreement.PublicKey, data: [UInt8]) {
        self.eReaderKey = eReaderKey
        eReaderKeyBytes = ProximityKeys.taggedBytes(of: eReaderKey)
        self.data = data
    }

    /// Reads a SessionEstablishment; members other than the two are passed by.
    public init(decoding bytes: [UInt8]) throws(ProximityError) {
        let reader = ProximityCBOR { .malformedSessionEstablishment($0) }
        let item = try reader.decode(bytes, "SessionEstablishment")
        _ = try reader.map(item, "SessionEstablishment")
        guard let key = item["eReaderKey"] else { throw .malformedSessionEstablishment("there is no eReaderKey") }
        guard let data = item["data"] else { throw .malformedSessionEstablishment("there is no data") }
        self.data = try reader.bytes(data, "data")
        eReaderKey = try ProximityKeys.publicKey(tagged: key)
        eReaderKeyBytes = Array(key.rawBytes)
    }

    /// Equal when the key's bytes and the data are (the key's bytes carry the key).
    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.eReaderKeyBytes == rhs.eReaderKeyBytes && lhs.data == rhs.data
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(eReaderKeyBytes)
        hasher.combine(data)
    }

    /// `{"eReaderKey": EReaderKeyBytes, "data": bstr}`, the key with its kept bytes.
    public func encoded() -> [UInt8] {
        CBOR.head(major: 5, argument: 2) + CBOR.text("eReaderKey").encoded() + eReaderKeyBytes
            + CBOR.text("data").encoded() + CBOR.bytes(data).encoded()
    }
}
