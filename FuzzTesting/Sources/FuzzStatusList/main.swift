import StatusList

// draft-ietf-oauth-status-list: a Status List Token (CWT, or JWT when the bytes are text) from any bytes, its list
// inflated within a 64 KiB bound (a token must not make the reader allocate more), and a few entries read.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let bytes = Array(UnsafeRawBufferPointer(start: start, count: count))
    if let signed = try? SignedStatusListToken(decoding: bytes, maximumListBytes: 65_536) {
        let list = signed.token.list
        for index in [0, 1, list.count / 2, list.count - 1, list.count] { _ = try? list.status(at: index) }
        _ = list.valueCounts()
    }
    if bytes.count > 1, let list = try? StatusList(bits: [1, 2, 4, 8][Int(bytes[0]) % 4], compressed: Array(bytes.dropFirst()),
                                                     maximumBytes: 65_536) {
        _ = list.compressed()
    }
    return 0
}
