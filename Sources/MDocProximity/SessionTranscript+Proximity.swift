import CBOR
import MDoc

extension SessionTranscript {
    /// `SessionTranscript = [DeviceEngagementBytes, EReaderKeyBytes, Handover]` (ISO/IEC 18013-5 §9.1.5.1) of a
    /// proximity session: the engagement's bytes as received or written (`#6.24`), the reader's key item as
    /// received or written, and the handover — `null` for QR engagement (§9.1.5.1), the two NFC handover messages for
    /// NFC engagement (§9.1.5.1, as Annex D has).
    public init(deviceEngagement: DeviceEngagement, eReaderKeyBytes: [UInt8], handover: CBOR = .null) throws(ProximityError) {
        let bytes = CBOR.head(major: 4, argument: 3) + CBOR.embeddedEncoding(of: deviceEngagement.encoded)
            + eReaderKeyBytes + handover.encoded()
        do { try self.init(encoded: bytes) } catch {
            throw .malformedSessionEstablishment("the SessionTranscript does not encode: \(error)")
        }
    }
}
