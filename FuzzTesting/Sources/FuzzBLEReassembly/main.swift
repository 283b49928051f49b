import MDocProximity

// ISO/IEC 18013-5 §8.3.3.1.1.6: the first byte picks an MTU (23…533), the rest is a run of characteristic values,
// each a length byte and that many bytes, fed to a reassembler with a 4 KiB cap; and the rest as a message, cut at
// that MTU and put back together, must come back unchanged.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let bytes = Array(UnsafeRawBufferPointer(start: start, count: count))
    guard let first = bytes.first else { return 0 }
    let mtu = 23 + 2 * Int(first)
    let rest = Array(bytes.dropFirst())
    var reassembler = BLEReassembler(maximumMessageSize: 4096)
    var position = 0
    while position < rest.count {
        let length = Int(rest[position])
        let end = min(rest.count, position + 1 + length)
        _ = try? reassembler.append(Array(rest[(position + 1)..<end]), mtu: mtu)
        position = end
    }
    var whole = BLEReassembler()
    var result: [UInt8]?
    for value in BLEFraming.chunks(rest, mtu: mtu) { result = try! whole.append(value, mtu: mtu) }
    precondition(result == rest)
    return 0
}
