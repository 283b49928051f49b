import Attestation

// The Android KeyDescription extension (BER as devices write it, `KeyDescriptionReader`) from any bytes.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let bytes = Array(UnsafeRawBufferPointer(start: start, count: count))
    _ = try? KeyDescription(extensionValue: bytes)
    return 0
}
