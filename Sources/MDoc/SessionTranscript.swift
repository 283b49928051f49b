import CBOR

/// `SessionTranscript = [DeviceEngagementBytes, EReaderKeyBytes, Handover]` (ISO/IEC 18013-5 §9.1.5.1), kept as its
/// exact encoding: DeviceAuthentication embeds it as received, so the device and the reader sign and verify the same
/// bytes. Online presentation sets the first two to null and puts its own Handover last (OpenID4VP 1.0 §B.2.6.1,
/// ISO/IEC TS 18013-7 Annex B): those handovers and the transcripts made with them are the `OpenID4VP` module's.
public struct SessionTranscript: Sendable, Hashable {
    /// The encoded array (not tag 24).
    public let encoded: [UInt8]

    /// A transcript from its encoding; it must be a three-element array.
    public init(encoded: [UInt8]) throws(MDocError) {
        let item = try MDocCBOR.decode(encoded, "SessionTranscript")
        guard try MDocCBOR.array(item, "SessionTranscript").count == 3 else {
            throw .malformed("SessionTranscript is not [DeviceEngagementBytes, EReaderKeyBytes, Handover]")
        }
        self.encoded = encoded
    }

    /// A transcript from `SessionTranscriptBytes` (`#6.24(bstr .cbor SessionTranscript)`), as Annex D gives it.
    public init(taggedBytes: [UInt8]) throws(MDocError) {
        let item = try MDocCBOR.decode(taggedBytes, "SessionTranscriptBytes")
        let inner = try MDocCBOR.embedded(item, "SessionTranscriptBytes")
        try self.init(encoded: Array(inner.rawBytes))
    }

    /// `[deviceEngagement, eReaderKey, handover]` encoded.
    public init(deviceEngagementBytes: CBOR = .null, eReaderKeyBytes: CBOR = .null, handover: CBOR) {
        encoded = CBOR.array([deviceEngagementBytes, eReaderKeyBytes, handover]).encoded()
    }

    /// `SessionTranscriptBytes`.
    public var taggedBytes: [UInt8] { CBOR.embeddedEncoding(of: encoded) }
}
