import MDoc

// ISO/IEC 18013-5 §8.3.2.1: a DeviceResponse, an IssuerSigned and a DeviceRequest from any bytes; what decodes has
// its digests checked (every item's digest recomputed over its received bytes) or its readerAuth verified, and is
// encoded again.
let transcript = try! SessionTranscript(taggedBytes: [0xD8, 0x18, 0x44, 0x83, 0xF6, 0xF6, 0xF6])

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
    if let request = try? DeviceRequest(decoding: bytes) {
        for docRequest in request.docRequests {
            _ = try? docRequest.verifyReaderAuthentication(sessionTranscript: transcript)
        }
        _ = request.encoded()
    }
    return 0
}
