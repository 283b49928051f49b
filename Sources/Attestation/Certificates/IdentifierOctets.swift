import SwiftASN1

/// The identifier octets that begin every encoding (ITU-T X.690 (02/2021) §8.1.2), decoded once for both readers of
/// received bytes: `DERReader` (certificates, DER) and `KeyDescriptionReader` (the KeyDescription extension, BER).
/// Both encoding rules write identifiers the same way, so the whole of §8.1.2 is checked here:
/// - class in bits 8–7, constructed in bit 6, the tag number in bits 5–1 (§8.1.2.2–8.1.2.5);
/// - tag numbers 0…30 only in the one-octet form (§8.1.2.2), larger ones in the high-tag-number form (§8.1.2.4)
///   without a leading 0x80 octet (§8.1.2.4.2 c) and in at most 9 octets (63 bits, swift-asn1's limit).
/// Whether [UNIVERSAL 0] (end-of-contents, X.680 §8.6) may stand here is the reader's rule, and so is the order in
/// which it checks it against the length octets.
struct IdentifierOctets {
    let identifier: ASN1Identifier
    let isConstructed: Bool
    /// The index just past the identifier octets, where the length octets start.
    let end: Int

    /// Whether this is [UNIVERSAL 0], which X.680 §8.6 reserves for end-of-contents octets.
    var isEndOfContents: Bool { identifier.tagClass == .universal && identifier.tagNumber == 0 }

    /// Why identifier octets are malformed; each reader words it in its own errors.
    enum Malformed: Error {
        /// The input ends before the identifier octets do.
        case truncated
        /// §8.1.2.4.2 c: the first subsequent octet is 0x80.
        case tagNumberWithLeadingZero
        /// More than 9 subsequent octets: over 63 bits.
        case tagNumberTooLarge
        /// §8.1.2.2: a number up to 30 in the high-tag-number form.
        case smallTagNumberInLongForm(UInt)
    }

    /// Reads the identifier octets at `start`, which must end before `limit` (itself within `bytes`).
    @inline(__always)
    init(reading bytes: BorrowedBytes, at start: Int, limit: Int) throws(Malformed) {
        var index = start
        guard index < limit else { throw .truncated }
        let leading = bytes[index]
        index += 1
        let tagClass: ASN1Identifier.TagClass
        switch leading >> 6 {
        case 0: tagClass = .universal
        case 1: tagClass = .application
        case 2: tagClass = .contextSpecific
        default: tagClass = .private
        }
        var tagNumber = UInt(leading & 0x1F)
        if tagNumber == 0x1F {
            // §8.1.2.4.2: base 128, bit 8 set on every octet but the last; the first may not be 0x80.
            tagNumber = 0
            var octets = 0
            while true {
                guard index < limit else { throw .truncated }
                let octet = bytes[index]
                index += 1
                if octets == 0, octet == 0x80 { throw .tagNumberWithLeadingZero }
                octets += 1
                // 7 bits an octet: 9 octets fill 63 bits of a 64-bit UInt, one more could overflow it; swift-asn1
                // refuses a tenth.
                guard octets <= (UInt.bitWidth - 1) / 7 else { throw .tagNumberTooLarge }
                tagNumber = tagNumber << 7 | UInt(octet & 0x7F)
                if octet & 0x80 == 0 { break }
            }
            guard tagNumber >= 0x1F else { throw .smallTagNumberInLongForm(tagNumber) }
        }
        self.identifier = ASN1Identifier(tagWithNumber: tagNumber, tagClass: tagClass)
        self.isConstructed = leading & 0x20 != 0
        self.end = index
    }
}
