import FuzzSupport
import MDoc
import MDocProximity

// ISO/IEC 18013-5 §8.3.2.1.2.1: a DeviceRequest from any bytes (as a proximity session delivers it), each
// document request's readerAuth verified over the Annex D transcript (§9.1.4), and the request written again with
// the bytes it came with.
let transcript = try! SessionTranscript(deviceEngagement: AnnexDSession.engagement,
                                        eReaderKeyBytes: AnnexDSession.reader().eReaderKeyBytes,
                                        handover: AnnexDSession.handover)

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let bytes = Array(UnsafeRawBufferPointer(start: start, count: count))
    guard let request = try? DeviceRequest(decoding: bytes) else { return 0 }
    for docRequest in request.docRequests {
        _ = try? docRequest.verifyReaderAuthentication(sessionTranscript: transcript)
    }
    _ = request.encoded()
    return 0
}
