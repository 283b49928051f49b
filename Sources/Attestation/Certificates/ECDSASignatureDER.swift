import Foundation

/// An X.509 ECDSA signature value (RFC 5758 §3.2 / RFC 3279 §2.2.3, `Ecdsa-Sig-Value ::= SEQUENCE { r INTEGER,
/// s INTEGER }`, DER) turned into the fixed-width `r ‖ s` form swift-crypto verifies (RFC 4754 §6), read straight off
/// the bytes.
///
/// It accepts exactly what swift-crypto's `ECDSASignature(derRepresentation:)` accepts, which BoringSSL decides:
/// strict DER (definite lengths in their shortest form, X.690 §10.1), INTEGERs in their shortest two's-complement form
/// (§8.3.2) and not negative, nothing after `s` or after the SEQUENCE, and each of r and s no wider than the curve's
/// coordinate once its sign octet is dropped. Going through swift-crypto's DER initialiser cost a BoringSSL parse into
/// big numbers and their conversion back to bytes for every leaf verified: about a twentieth of the verify itself.
enum ECDSASignatureDER {
    /// `r ‖ s`, each left-padded with zeros to `coordinateSize` octets, or nil if `der` is not a signature value as
    /// above. `Data`, which swift-crypto keeps as it is (from an array it converts through dynamic casts).
    static func raw(_ der: ArraySlice<UInt8>, coordinateSize: Int) -> Data? {
        var index = der.startIndex
        guard let sequence = element(der, at: &index, tag: 0x30), index == der.endIndex else { return nil }
        var inner = sequence.lowerBound
        guard let r = element(der, at: &inner, tag: 0x02), let s = element(der, at: &inner, tag: 0x02),
              inner == sequence.upperBound else { return nil }
        guard valid(der, r, width: coordinateSize), valid(der, s, width: coordinateSize) else { return nil }
        var raw = Data(count: 2 * coordinateSize)
        raw.withUnsafeMutableBytes { buffer in
            copy(der, r, into: buffer, end: coordinateSize)
            copy(der, s, into: buffer, end: 2 * coordinateSize)
        }
        return raw
    }

    /// The contents range of the element with `tag` at `index` (which moves past it), with its DER length checked.
    private static func element(_ bytes: ArraySlice<UInt8>, at index: inout Int, tag: UInt8) -> Range<Int>? {
        guard bytes.endIndex - index >= 2, bytes[index] == tag else { return nil }
        let first = bytes[index + 1]
        var start = index + 2
        var length = Int(first)
        if first >= 0x80 {
            // Long form: 1 or 2 length octets are plenty for any curve; the shortest form only (X.690 §10.1).
            let octets = Int(first & 0x7F)
            guard (1...2).contains(octets), bytes.endIndex - start >= octets, bytes[start] != 0 else { return nil }
            length = 0
            for offset in 0..<octets { length = length << 8 | Int(bytes[start + offset]) }
            guard length >= 0x80 else { return nil }
            start += octets
        }
        guard length <= bytes.endIndex - start else { return nil }
        index = start + length
        return start..<(start + length)
    }

    /// Whether the INTEGER contents `range` are in their shortest form, not negative, and fit `width` octets once the
    /// sign octet is dropped.
    private static func valid(_ bytes: ArraySlice<UInt8>, _ range: Range<Int>, width: Int) -> Bool {
        guard let start = range.first else { return false }                                   // §8.3.1: at least one octet
        if range.count > 1, bytes[start] == 0x00, bytes[start + 1] & 0x80 == 0 { return false } // §8.3.2: shortest form
        guard bytes[start] & 0x80 == 0 else { return false }                                  // negative
        return range.count - (bytes[start] == 0x00 ? 1 : 0) <= width
    }

    /// Copies the (valid) INTEGER contents `range` without its sign octet so that they end at `buffer[end - 1]`.
    private static func copy(_ bytes: ArraySlice<UInt8>, _ range: Range<Int>, into buffer: UnsafeMutableRawBufferPointer, end: Int) {
        let start = bytes[range.lowerBound] == 0x00 ? range.lowerBound + 1 : range.lowerBound
        var target = end - (range.upperBound - start)
        for index in start..<range.upperBound {
            buffer[target] = bytes[index]
            target += 1
        }
    }
}
