import DigitalCredentials

// W3C Digital Credentials: the request JSON a wallet is handed (one {protocol, data}, the digital member or the whole
// options); each org-iso-mdoc request read as ISO/IEC TS 18013-7 Annex C's {deviceRequest, encryptionInfo}, its
// readerAuth verified over the Annex C transcript, and everything written again.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let bytes = Array(UnsafeRawBufferPointer(start: start, count: count))
    guard let requests = try? DigitalCredentialRequestOptions.requests(fromJSON: bytes) else { return 0 }
    for request in requests {
        _ = try? request.jsonBytes()
        guard let annexC = try? AnnexCRequest(request) else { continue }
        _ = try? annexC.verifyReaderAuthentication(origin: "https://fuzz.example")
        _ = annexC.deviceRequest.encoded()
    }
    return 0
}
