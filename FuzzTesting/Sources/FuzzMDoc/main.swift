import MDoc

// ISO/IEC 18013-5 §8.3.2.1: a DeviceResponse and an IssuerSigned from any bytes; what decodes has its digests
// checked (every item's digest recomputed over its received bytes) and is encoded again.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let bytes = Array(UnsafeRawBufferPointer(start: start, count: count))
    if let response = try? DeviceResponse(decoding: bytes) {
        for document in response.documents { _ = try? MDocVerifier.verifyDigests(document.issuerSigned) }
    }
    if let issuerSigned = try? IssuerSigned(decoding: bytes) {
        _ = try? MDocVerifier.verifyDigests(issuerSigned)
        _ = issuerSigned.encoded()
    }
    return 0
}
