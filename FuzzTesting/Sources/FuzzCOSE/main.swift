import COSE

// COSE_Sign1 (RFC 9052 §4.2) and COSE_Key (§7) from any bytes.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let bytes = Array(UnsafeRawBufferPointer(start: start, count: count))
    _ = try? COSESign1(decoding: bytes)
    _ = try? COSEKey(decoding: bytes)
    return 0
}
