import CBOR

/// `Document = {docType, issuerSigned, deviceSigned, ? errors}` (ISO/IEC 18013-5 §8.3.2.1.2.2).
public struct Document: Sendable, Hashable {
    public let docType: String
    public let issuerSigned: IssuerSigned
    /// Required by §8.3.2.1.2.2; optional here so that an issuer's output can be read too (a verifier that needs
    /// device authentication refuses a document without it: ``MDocError/deviceAuthenticationMissing``).
    public let deviceSigned: DeviceSigned?
    /// `errors`: namespace → element → error code, kept as CBOR.
    public let errors: CBOR?

    public init(docType: String, issuerSigned: IssuerSigned, deviceSigned: DeviceSigned?, errors: CBOR? = nil) {
        self.docType = docType
        self.issuerSigned = issuerSigned
        self.deviceSigned = deviceSigned
        self.errors = errors
    }

    public init(item: CBOR.Decoded) throws(MDocError) {
        docType = try MDocCBOR.text(try MDocCBOR.field(item, "docType", in: "Document"), "docType")
        issuerSigned = try IssuerSigned(item: try MDocCBOR.field(item, "issuerSigned", in: "Document"))
        deviceSigned = try MDocCBOR.optionalField(item, "deviceSigned", in: "Document").map {
            (signed) throws(MDocError) in try DeviceSigned(item: signed)
        }
        errors = try MDocCBOR.optionalField(item, "errors", in: "Document")?.value
    }

    public func encoded() -> [UInt8] {
        var count: UInt64 = 2
        if deviceSigned != nil { count += 1 }
        if errors != nil { count += 1 }
        var bytes = CBOR.head(major: 5, argument: count)
        bytes += CBOR.text("docType").encoded() + CBOR.text(docType).encoded()
        bytes += CBOR.text("issuerSigned").encoded() + issuerSigned.encoded()
        if let deviceSigned { bytes += CBOR.text("deviceSigned").encoded() + deviceSigned.encoded() }
        if let errors { bytes += CBOR.text("errors").encoded() + errors.encoded() }
        return bytes
    }
}
