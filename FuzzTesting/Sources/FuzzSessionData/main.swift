import FuzzSupport
import MDocProximity

// ISO/IEC 18013-5 §9.1.1.4: a SessionData from any bytes, written again, and received by the reader's session of
// Annex D after its first request (in which Annex D's SESSION_DATA decrypts) and by the mdoc's after the first.
let readerAfterRequest: ReaderProximitySession = {
    var reader = AnnexDSession.reader()
    _ = try! reader.request(deviceRequest: [0xA0])
    return reader
}()
let mdocAfterRequest: MDocProximitySession = {
    var reader = AnnexDSession.reader()
    var mdoc = AnnexDSession.mdoc()
    guard case .request = mdoc.receive(try! reader.request(deviceRequest: [0xA0])) else { fatalError("Annex D session") }
    return mdoc
}()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let bytes = Array(UnsafeRawBufferPointer(start: start, count: count))
    if let data = try? SessionData(decoding: bytes) {
        precondition((try? SessionData(decoding: data.encoded())) == data)
    }
    var reader = readerAfterRequest
    _ = reader.receive(bytes)
    var mdoc = mdocAfterRequest
    _ = mdoc.receive(bytes)
    return 0
}
