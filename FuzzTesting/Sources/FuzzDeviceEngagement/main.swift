import MDocProximity

// ISO/IEC 18013-5 §8.2.1.1 / §8.2.2.3: a DeviceEngagement from any bytes, and from the same bytes as the text of a QR
// code (`mdoc:` and base64url); what reads keeps its bytes and reads again from its own QR text.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let bytes = Array(UnsafeRawBufferPointer(start: start, count: count))
    if let engagement = try? DeviceEngagement(decoding: bytes) {
        precondition(engagement.encoded == bytes)
        precondition((try? DeviceEngagement(qrCode: engagement.qrCode)) == engagement)
    }
    if let text = String(validating: bytes, as: UTF8.self), let engagement = try? DeviceEngagement(qrCode: text) {
        precondition(engagement.qrCode == text)
    }
    return 0
}
