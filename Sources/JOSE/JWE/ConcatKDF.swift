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
        appendLengthPrefixed(Array(algorithmID.utf8), to: &otherInfo)
        appendLengthPrefixed(partyUInfo, to: &otherInfo)
        appendLengthPrefixed(partyVInfo, to: &otherInfo)
        appendUInt32(UInt32(truncatingIfNeeded: bits), to: &otherInfo)

        let byteCount = (bits + 7) / 8
        var output: [UInt8] = []
        var counter: UInt32 = 1
        while output.count < byteCount {
            var hash = SHA256()
            var counterBytes: [UInt8] = []
            appendUInt32(counter, to: &counterBytes)
            hash.update(data: counterBytes)
            hash.update(data: z)
            hash.update(data: otherInfo)
            output += Array(hash.finalize())
            counter += 1
        }
        return Array(output.prefix(byteCount))
    }

    private static func appendUInt32(_ value: UInt32, to bytes: inout [UInt8]) {
        bytes += [UInt8(value >> 24), UInt8((value >> 16) & 0xFF), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF)]
    }

    private static func appendLengthPrefixed(_ data: [UInt8], to bytes: inout [UInt8]) {
        appendUInt32(UInt32(truncatingIfNeeded: data.count), to: &bytes)
        bytes += data
    }
}
