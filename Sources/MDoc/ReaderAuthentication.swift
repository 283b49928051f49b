import CBOR

/// `ReaderAuthentication = ["ReaderAuthentication", SessionTranscript, ItemsRequestBytes]` (ISO/IEC 18013-5 §9.1.4).
/// The reader signs `ReaderAuthenticationBytes = #6.24(bstr .cbor ReaderAuthentication)` as the detached payload of
/// its `readerAuth` COSE_Sign1. The transcript and the items request go in as their exact bytes.
public enum ReaderAuthentication {
    /// `ReaderAuthenticationBytes` for one document request.
    public static func taggedBytes(sessionTranscript: SessionTranscript, itemsRequestBytes: [UInt8]) -> [UInt8] {
        var structure = CBOR.head(major: 4, argument: 3)
        structure += CBOR.text("ReaderAuthentication").encoded()
        structure += sessionTranscript.encoded
        structure += itemsRequestBytes
        return CBOR.embeddedEncoding(of: structure)
    }
}
