import Crypto

/// NIST SP 800-56A rev. 2 §5.8.1 single-step KDF with SHA-256, as RFC 7518 §4.6.2 uses it for ECDH-ES.
public enum ConcatKDF {
    /// Derives `keyDataLength` bits from the shared secret `Z`.
    ///
    /// OtherInfo = AlgorithmID ‖ PartyUInfo ‖ PartyVInfo ‖ SuppPubInfo, where the first three are each prefixed with
    /// their 32-bit big-endian length and SuppPubInfo is the key length in bits, 32-bit big-endian (RFC 7518 §4.6.2).
    /// For direct key agreement AlgorithmID is the `enc` value; otherwise it is the `alg` value.
    public static func deriveKey(sharedSecret z: [UInt8], algorithmID: String, partyUInfo: [UInt8], partyVInfo: [UInt8],
                                 keyDataLength bits: Int) -> [UInt8] {
        var otherInfo: [UInt8] = []
        otherInfo.reserveCapacity(16 + algorithmID.utf8.count + partyUInfo.count + partyVInfo.count)
        appendUInt32(UInt32(truncatingIfNeeded: algorithmID.utf8.count), to: &otherInfo)
        otherInfo += algorithmID.utf8
        appendLengthPrefixed(partyUInfo, to: &otherInfo)
        appendLengthPrefixed(partyVInfo, to: &otherInfo)
        appendUInt32(UInt32(truncatingIfNeeded: bits), to: &otherInfo)

        let byteCount = (bits + 7) / 8
        var output: [UInt8] = []
        output.reserveCapacity(byteCount + SHA256.byteCount)
        var counter: UInt32 = 1
        while output.count < byteCount {
            var hash = SHA256()
            withUnsafeBytes(of: counter.bigEndian) { hash.update(bufferPointer: $0) }
            hash.update(data: z)
            hash.update(data: otherInfo)
            hash.finalize().withUnsafeBytes { output.append(contentsOf: $0) }
            counter += 1
        }
        if output.count > byteCount { output.removeLast(output.count - byteCount) }
        return output
    }

    private static func appendUInt32(_ value: UInt32, to bytes: inout [UInt8]) {
        withUnsafeBytes(of: value.bigEndian) { bytes.append(contentsOf: $0) }
    }

    private static func appendLengthPrefixed(_ data: [UInt8], to bytes: inout [UInt8]) {
        appendUInt32(UInt32(truncatingIfNeeded: data.count), to: &bytes)
        bytes += data
    }
}
