import CBOR

// libFuzzer's entry point: one input, any bytes. The decoder must refuse what it cannot read with a `CBORError`,
// never crash, leak or hang; what it reads must encode again.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let bytes = Array(UnsafeRawBufferPointer(start: start, count: count))
    if let decoded = try? CBOR.decode(bytes) {
        _ = decoded.value.encoded()
    }
    _ = try? CBOR.decodeSequence(bytes)
    return 0
}
