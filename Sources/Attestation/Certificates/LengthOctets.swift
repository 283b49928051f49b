/// The length octets of an encoding (ITU-T X.690 (02/2021) §8.1.3), decoded once for both readers of received bytes:
/// `DERReader` and `KeyDescriptionReader`. What is common to BER and DER is checked here — at most 8 octets in the
/// long form (swift-asn1's limit; 0xFF, reserved by §8.1.3.5 c, is refused with it), all of them present — and the
/// form is returned as written, so that each reader applies its own rules to it: DER allows only the definite form
/// in the fewest octets (§10.1), BER allows the long form for any length and the indefinite form (§8.1.3.6) for
/// constructed encodings. Whether the length fits in the enclosing contents is the reader's check too.
struct LengthOctets {
    /// §8.1.3.6: no length; the contents end at end-of-contents octets.
    let isIndefinite: Bool
    /// The number of subsequent octets of the long form (§8.1.3.5), 0 for the short form and the indefinite form.
    let longFormOctets: Int
    /// The length of the contents octets, for the definite forms.
    let length: UInt
    /// The index just past the length octets, where the contents octets start.
    let end: Int

    /// Why length octets are malformed; each reader words it in its own errors.
    enum Malformed: Error {
        /// The input ends before the length octets do.
        case truncated
        /// A long form of more than 8 subsequent octets.
        case tooManyOctets(Int)
    }

    /// Reads the length octets at `start`, which must end by `limit` (itself within `bytes`).
    @inline(__always)
    init(reading bytes: BorrowedBytes, at start: Int, limit: Int) throws(Malformed) {
        var index = start
        guard index < limit else { throw .truncated }
        let first = bytes[index]
        index += 1
        if first == 0x80 {
            isIndefinite = true
            longFormOctets = 0
            length = 0
        } else if first < 0x80 {
            // §8.1.3.4: the short form.
            isIndefinite = false
            longFormOctets = 0
            length = UInt(first)
        } else {
            // §8.1.3.5: the long form, big-endian, in as many octets as bits 7–1 of the first say.
            let octets = Int(first & 0x7F)
            guard limit - index >= octets else { throw .truncated }
            guard octets <= 8 else { throw .tooManyOctets(octets) }
            var value: UInt = 0
            for offset in 0..<octets { value = value << 8 | UInt(bytes[index + offset]) }
            index += octets
            isIndefinite = false
            longFormOctets = octets
            length = value
        }
        self.end = index
    }
}
