import Ephemeral

// The RESP2 reply decoder (what a Redis server, or anything answering on its port, sends back) from any bytes.
let decoder = RESPDecoder()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let bytes = Array(UnsafeRawBufferPointer(start: start, count: count))
    _ = try? decoder.decode(bytes)
    return 0
}
