import CBOR

/// `DeviceAuthentication = ["DeviceAuthentication", SessionTranscript, DocType, DeviceNameSpacesBytes]` (ISO/IEC
/// 18013-5 §9.1.3.4). The device signs `DeviceAuthenticationBytes = #6.24(bstr .cbor DeviceAuthentication)` as the
/// detached payload of its deviceSignature (§9.1.3.6). The transcript and the namespaces go in as their exact bytes.
public enum DeviceAuthentication {
    /// `DeviceAuthenticationBytes` for a document.
    public static func taggedBytes(sessionTranscript: SessionTranscript, docType: String,
                                   deviceNameSpacesBytes: [UInt8]) -> [UInt8] {
        var structure = CBOR.head(major: 4, argument: 4)
        structure += CBOR.text("DeviceAuthentication").encoded()
        structure += sessionTranscript.encoded
        structure += CBOR.text(docType).encoded()
        structure += deviceNameSpacesBytes
        return CBOR.embeddedEncoding(of: structure)
    }
}
