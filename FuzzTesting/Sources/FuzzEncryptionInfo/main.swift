import DigitalCredentials

// ISO/IEC TS 18013-7 Annex C EncryptionInfo, from CBOR bytes and from its base64url wire form.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let bytes = Array(UnsafeRawBufferPointer(start: start, count: count))
    if let info = try? EncryptionInfo(decoding: bytes) { _ = try? EncryptionInfo(base64URL: info.base64URL) }
    _ = try? EncryptionInfo(base64URL: String(decoding: bytes, as: UTF8.self))
    return 0
}
