import FuzzSupport
import MDocProximity

// ISO/IEC 18013-5 §9.1.1.4: a SessionEstablishment from any bytes, written again, and handed as the first message
// to the mdoc's session of Annex D (in which Annex D's SESSION_ESTABLISHMENT decrypts), then a second message after it.
let fresh = AnnexDSession.mdoc()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let bytes = Array(UnsafeRawBufferPointer(start: start, count: count))
    if let establishment = try? SessionEstablishment(decoding: bytes) {
        precondition((try? SessionEstablishment(decoding: establishment.encoded())) == establishment)
    }
    var mdoc = fresh
    if case .request = mdoc.receive(bytes) {
        _ = try? mdoc.seal(deviceResponse: [0xA0])
    }
    _ = mdoc.receive(bytes)
    return 0
}
